/** A day of an ad's weekly schedule, as the API names it. */
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
/** The hours (0-23, the ad's own timezone) an ad is shown on each day of the week. */
export type Schedule = Record<Weekday, number[]>;
