import type {Handler} from './context.js'
import {result} from './replies.js'

export const getSupportedProtocols: Handler = ({vm}) => {
  const protocols = [{type: 'Protocol', protocolName: 'VM Service', major: 4, minor: 20}]
  if (vm.dds) protocols.push({type: 'Protocol', protocolName: 'DDS', major: 1, minor: 6})
  return result({type: 'ProtocolList', protocols})
}

/** Only DDS answers this; through the raw VM it is an unknown method. */
export const getDartDevelopmentServiceVersion: Handler = () => result({type: 'Version', major: 1, minor: 6})
