// oclif's command list for the in-process runner (test/helpers/run-command.ts). oclif imports
// its command target natively, which cannot read TypeScript; the runner has already imported the
// command classes from src/ through vitest and hands them over here, so no build is needed.
export const COMMANDS = globalThis.tapirSourceCommands
