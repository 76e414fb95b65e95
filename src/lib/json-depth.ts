/** Whether JSON text nests arrays and objects deeper than `limit`. Counted on the text, without
 *  recursion, so a hostile answer is refused before anything walks it (JSON.stringify and other
 *  recursive readers overflow the stack some thousands of levels down). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 0x5c)
        index++ // a backslash escapes the next character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}
