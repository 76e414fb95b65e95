/** What the supervisor tells a watcher (`tapir start`), one JSON object a line on its socket. */
export type SupervisorEvent =
  | {event: 'flutter'; pid: number}
  | {event: 'progress'; message: string}
  | {event: 'webLaunchUrl'; url: string}
  | {event: 'debugPort'; wsUri: string}
  | {event: 'started'}
  | {event: 'exited'; code: number | null; error?: string}

/** What a client asks the supervisor, one JSON object a line. */
export type SupervisorRequest = {op: 'watch'} | {op: 'restart'; fullRestart: boolean} | {op: 'stop'}

/** The supervisor's answer to restart and stop. */
export type SupervisorReply = {ok: true; message: string} | {ok: false; message: string; compileError?: string}
