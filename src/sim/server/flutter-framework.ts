/** The few `ext.flutter.*` extensions the Flutter binding registers that the sim answers, with the
 *  binding's conventions: bool extensions take and return `enabled`, numeric ones a key named
 *  after the extension, signals return `{}`. State lives as long as the isolate. */
export class FlutterFramework {
  static readonly extensions = ['ext.flutter.reassemble', 'ext.flutter.debugPaint', 'ext.flutter.timeDilation'] as const

  private debugPaint = false
  private timeDilation = 1

  call(method: string, params: Record<string, string>): Record<string, unknown> {
    switch (method) {
      case 'ext.flutter.reassemble':
        return {}
      case 'ext.flutter.debugPaint':
        if (params.enabled !== undefined) this.debugPaint = params.enabled === 'true'
        return {enabled: String(this.debugPaint)}
      case 'ext.flutter.timeDilation':
        if (params.timeDilation !== undefined) this.timeDilation = parseDartDouble(params.timeDilation)
        return {timeDilation: dartDoubleText(this.timeDilation)}
      default:
        throw new Error(`FlutterFramework has no handler for ${method}`)
    }
  }
}

function parseDartDouble(text: string): number {
  const value = Number(text)
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`FormatException: Invalid double\n${text}`)
  return value
}

function dartDoubleText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value)
}
