import { type Logger, LogLevel } from '@slack/bolt';

/** A Bolt / WebClient logger that prints nothing (refusals a test or bench expects). */
export const quietLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};
