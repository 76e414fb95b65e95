/** `host` as it goes into a URI authority: IPv6 addresses in brackets. */
export function hostForUri(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}

/** The address a VM or DDS advertises: `http://host:port/TOKEN=/`. */
export function httpUriOf(host: string, port: number, token: string): string {
  return `http://${hostForUri(host)}:${port}/${token}/`
}
