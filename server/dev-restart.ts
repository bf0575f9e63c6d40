/** The exit status with which server/dev-server.ts asks scripts/dev.ts for a full restart. */
export const RESTART_EXIT_CODE = 75;
