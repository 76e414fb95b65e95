export interface SpecTool {
  name: string
  dispatch: string | null
  params: Array<{name: string; type: string; required: boolean; default?: unknown}>
}
export declare const specPath: string
export declare function extractTools(markdown: string): SpecTool[]
export interface SpecExtension {
  name: string
  /** The section of the reference that names it (a tool, or a universal paragraph). */
  section: string
  from: 'dispatch' | 'prose'
  /** The sentence, when prose names it. */
  quote?: string
}
export declare function extractExtensions(markdown: string): SpecExtension[]
