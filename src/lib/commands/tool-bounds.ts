/** Bounds on what an agent may hand a command through its MCP tool: a device id or a fault knob,
 *  a URI or one argument for flutter run, and how many of them. */
export const MAX_NAME_CHARS = 256
export const MAX_ARG_CHARS = 4096
export const MAX_LIST_ITEMS = 100
