export interface DuskSpecTool {
  name: string
  dispatch: string
  params: Array<{name: string; type: string; required: boolean; default?: unknown; enum?: string[]; items?: string[]}>
  example: Record<string, unknown>
}
export declare const duskSpecPath: string
export declare function extractDuskTools(text: string): DuskSpecTool[]
