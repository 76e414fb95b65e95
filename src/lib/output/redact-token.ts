/** The start of a URI, scheme matched in any case, plain or percent-encoded (a URI inside the
 *  query of another, as DevTools links carry it). The look-behind lets a run of letters start a
 *  match only once, so a long text is scanned in linear time. */
const URI = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*(?::\/\/|%3A%2F%2F)[^\s"'<>`\\]*/gi
const HAS_URI = /:\/\/|%3A%2F%2F/i
/** Path separators (kept by the split) and the characters that end a segment in a query. */
const SEPARATOR = /(\/|%2F|[?#&])/i
/** base64url text with its `=` padding, raw or percent-encoded: the shape of a VM Service, DDS
 *  or DWDS auth token. Whatever follows it in the segment (a full stop, a bracket) is kept. */
const TOKEN = /^[A-Za-z0-9_-]{2,}(?:={1,2}|(?:%3D){1,2})(?![A-Za-z0-9_=%-])/i
const WS_SEGMENT = /^ws(?![A-Za-z0-9_-])/

const MASK = '***'

function isSlash(piece: string | undefined): boolean {
  return piece === '/' || piece?.toLowerCase() === '%2f'
}

function redactUri(uri: string): string {
  const pieces = uri.split(SEPARATOR)
  // pieces: scheme, '/', '', '/', host, then separators and segments alternating.
  const isPathSegment = (index: number) => index >= 6 && index % 2 === 0
  return pieces
    .map((segment, index) => {
      if (!isPathSegment(index)) return segment
      if (TOKEN.test(segment)) return segment.replace(TOKEN, MASK)
      const beforeWs = isSlash(pieces[index + 1]) && WS_SEGMENT.test(pieces[index + 2] ?? '')
      return segment !== '' && !/:|%3A/i.test(segment) && beforeWs ? MASK : segment
    })
    .join('')
}

/** Hides the auth token of every VM Service URI in a text: each path segment, at any depth,
 *  that has a token's shape (base64url ending in `=`) or comes right before `/ws`. */
export function redactToken(text: string): string {
  if (!HAS_URI.test(text)) return text
  return text.replace(URI, redactUri)
}
