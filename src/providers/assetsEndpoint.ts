/** The assets API (API contract, Files): uploads, and `/<id>/download`. */
export const ASSETS_ENDPOINT = 'v1/resources/assets';
