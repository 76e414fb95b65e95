#!/usr/bin/env node
// Runs tapir from the TypeScript sources, with no build: in development oclif registers tsx (a
// devDependency) and maps each dist/ path it loads to the same path under src/.
const {execute} = await import('@oclif/core/execute')
await execute({development: true, dir: import.meta.url})
