import {tapirError} from '../errors.js'
import {runQuery} from '../queries.js'
import type {Query} from '../refs.js'
import type {ExtensionHandler} from './extension-handler.js'

export const findHandler: ExtensionHandler = {
  name: 'find',
  cites: 'tapir_find',
  wakesFrames: true,
  run(app, params) {
    const query: Query = {
      key: params.optional('key'),
      semanticsLabel: params.optional('semanticsLabel'),
      text: params.optional('text'),
      contains: params.optional('contains'),
      within: params.optional('within'),
    }
    if (query.key === undefined && query.semanticsLabel === undefined && query.text === undefined && query.contains === undefined) {
      throw tapirError('ext.tapir.find: at least one of "text", "contains", "semanticsLabel", or "key" is required', 'missing_param')
    }
    const outcome = runQuery(app, query)
    const diagnostic = outcome.diagnostic === undefined ? {} : {diagnostic: outcome.diagnostic}
    if (outcome.kind === 'none') return {ref: null, matched: false, ...diagnostic}
    return {ref: app.refs.mintQuery(query), matched: true, matchCount: outcome.matchCount, ...diagnostic}
  },
}
