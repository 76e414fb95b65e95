export declare function standInSource(options: {names: string[]; esModule: boolean; load: string; eager?: Record<string, string>}): string
export declare function lazyModulesPlugin(options: {
  builtins: string[]
  packages: string[]
  partial: Record<string, Record<string, string>>
  fromDir: string
  stamped: (packageJson: string) => void
}): unknown
