import { getCountryStore, isSupportedCountry } from '#shared/upstream/countries.ts';
import type { DistanceUnit } from '#shared/upstream/types.ts';

// "Nearby" means near (issue 42): a search's nearby results stop at a distance the user sees
// in their country's unit. Limits are stored in miles whatever the unit, so the matching query
// stays one comparison; the unit only changes what people read and type.

/** Kilometres in one mile, exactly. */
const KM_PER_MILE = 1.609344;

/** The default nearby distance in each unit: 30 miles, or 50 km where people count in km. */
export const DEFAULT_NEARBY_DISTANCE: Readonly<Record<DistanceUnit, number>> = { mi: 30, km: 50 };

/** The unit distances are shown in for a store's country (Apple's own unit there); miles if unknown. */
export function getDistanceUnit(countryCode: string): DistanceUnit {
  return isSupportedCountry(countryCode) ? getCountryStore(countryCode).distanceUnit : 'mi';
}

/** Converts a distance in the given unit to miles (the stored unit). */
export function toMiles(value: number, unit: DistanceUnit): number {
  return unit === 'mi' ? value : value / KM_PER_MILE;
}

/** Converts miles to the given unit, rounded to 0.1 so a stored 31.0686 mi reads 50 km. */
export function fromMiles(miles: number, unit: DistanceUnit): number {
  const value = unit === 'mi' ? miles : miles * KM_PER_MILE;
  return Math.round(value * 10) / 10;
}

/** The default limit of a new search at a store of this country, in miles. */
export function findDefaultMaxDistanceMiles(countryCode: string): number {
  const unit = getDistanceUnit(countryCode);
  return toMiles(DEFAULT_NEARBY_DISTANCE[unit], unit);
}

/** "1.2 mi" / "3.4 km": a distance in miles written in the unit people there use. */
export function formatDistance(miles: number, unit: DistanceUnit): string {
  return `${fromMiles(miles, unit).toFixed(1)} ${unit}`;
}
