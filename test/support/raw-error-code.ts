/**
 * A system error code leaking into a message meant for people: "ENOENT", "EACCES", undici's
 * "UND_ERR_SOCKET", Node's "ERR_INVALID_ARG_TYPE", SQLite's "SQLITE_CANTOPEN". Only the real
 * names count: a pattern such as /E[A-Z]{3,}/ also matched the random six letters of a temp
 * folder's name ("decidekit-output-rule-ENYKWR"), which failed a clean run now and then although
 * the message was in words.
 */
import { constants } from 'node:os';

const NAMES = Object.keys(constants.errno).filter((name) => /^E[A-Z0-9]+$/.test(name));

export const RAW_ERROR_CODE = new RegExp(`\\b(?:${NAMES.join('|')}|UND_ERR_[A-Z_]+|ERR_[A-Z_]{3,}|SQLITE_[A-Z_]+)\\b`);
