export interface SpecTool {
  name: string
  dispatch: string | null
  params: Array<{name: string; type: string; required: boolean; default?: unknown}>
}
export declare const specPath: string
export declare function extractTools(markdown: string): SpecTool[]
