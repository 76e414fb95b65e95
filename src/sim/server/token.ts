import {randomBytes} from 'node:crypto'

/** 8 random bytes in padded base64url: 12 characters ending in `=`, as the VM, DDS and DWDS make them. */
export function makeAuthToken(): string {
  return `${randomBytes(8).toString('base64url')}=`
}
