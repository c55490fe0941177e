/** The part of addons-linter's Node API the package test uses (it ships no types). */
declare module 'addons-linter' {
  export interface LinterMessage {
    code: string;
    message: string;
    file?: string;
    line?: number;
    column?: number;
  }
  export function createInstance(options: { config: Record<string, unknown>; runAsBinary: boolean }): {
    run(): Promise<{ errors: LinterMessage[]; warnings: LinterMessage[]; notices: LinterMessage[] }>;
  };
}
