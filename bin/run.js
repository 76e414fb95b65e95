#!/usr/bin/env node
// The executable's former name, still run by agent configs that `tapir mcp:install` wrote before
// it named bin/run.cjs: the same program, one ES module hop slower to start.
import './run.cjs'
