import {tapirError} from '../errors.js'
import {invalidParams} from '../perf/params.js'
import type {ExtensionHandler} from './extension-handler.js'

/** Drills into one insight of the last closed session: the rows behind it. */
export const perfInsightHandler: ExtensionHandler = {
  name: 'perf_insight',
  cites: 'tapir_perf_insight',
  wakesFrames: false,
  run(app, params) {
    const id = params.optional('id')
    if (id === undefined)
      throw invalidParams(
        'ext.tapir.perf_insight: missing required param "id"; take an id (I1, I2, ...) from perf_end\'s insights[]',
        'missing_param',
      )
    const session = app.perf.closedFor('perf_insight', params.optional('token'))
    const insight = session.insights.find((i) => i.id === id)
    if (insight === undefined) {
      const issued = session.insights.map((i) => i.id).sort((x, y) => Number(x.slice(1)) - Number(y.slice(1)))
      const listed = issued.length === 0 ? 'it raised no insights' : `it issued ${issued.join(', ')}`
      throw tapirError(
        `ext.tapir.perf_insight: session ${session.token} never issued insight "${id}" (${listed}); read perf_end's insights[] for the ids`,
        'not_found',
        undefined,
        issued,
      )
    }
    return {
      sessionToken: session.token,
      id: insight.id,
      severity: insight.severity,
      title: insight.title,
      summary: insight.summary,
      detail: insight.detail,
      estimatedSavingsMs: insight.estimatedSavingsMs ?? null,
      nextStep: insight.nextStep,
    }
  },
}
