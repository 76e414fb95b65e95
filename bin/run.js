#!/usr/bin/env node
import module from 'node:module'

// Node 22.1+ keeps compiled code between runs; start-up is what agents feel on every verb.
module.enableCompileCache?.()

// The subpath skips @oclif/core's index, which checks the Node version with semver on every start.
const {execute} = await import('@oclif/core/execute')
await execute({dir: import.meta.url})
