#!/usr/bin/env node
import module from 'node:module'

// Node 22.1+ keeps compiled code between runs; start-up is what agents feel on every verb.
module.enableCompileCache?.()

const {execute} = await import('@oclif/core')
await execute({dir: import.meta.url})
