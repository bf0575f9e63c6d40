/** Values the global setup hands to every browser test through vitest's `provide`/`inject`. */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the real server the tests drive, e.g. `http://127.0.0.1:41234`. */
    baseURL: string;
    adminUsername: string;
    adminPassword: string;
  }
}

export {};
