/** A channel an alert is delivered on. */
export type AlertChannelName = 'email' | 'text' | 'push';

/** Miles in a kilometre, for distances Apple reports in km. */
export const MILES_PER_KILOMETRE = 0.621371;

/** Converts an upstream distance to miles, rounded to a tenth. */
export function convertToMiles(distance: { value: number; unit: 'mi' | 'km' }): number {
  const miles = distance.unit === 'km' ? distance.value * MILES_PER_KILOMETRE : distance.value;
  return Math.round(miles * 10) / 10;
}
