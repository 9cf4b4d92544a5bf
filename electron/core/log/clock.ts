/** Where the log and the store get the time from, so tests can pin it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
