// Coordinates for the stores of Apple's directory. The directory carries none, the product
// never needs them (it learns distances from Apple's answers), but the simulator lists each
// answer's 11 nearest stores by great-circle distance, so the benchmark places every store:
// seeded stores keep their own coordinates, the others sit near their city's centre (an
// approximate table, to a hundredth of a degree, for the cities of the countries the catalog
// sells in), stores of one city a few kilometres apart.
import type { DirectoryStore, StoreSeed } from '#shared/catalog/index.ts';

type CityRow = readonly [key: string, latitude: number, longitude: number];

// Keys are `locale|state code|city` as the directory spells them (state empty where it has none).
const CITY_CENTRES: readonly CityRow[] = [
  ['en_US|AK|Anchorage', 61.22, -149.9],
  ['en_US|AL|Birmingham', 33.52, -86.8],
  ['en_US|AL|Huntsville', 34.73, -86.59],
  ['en_US|AR|Little Rock', 34.75, -92.29],
  ['en_US|AZ|Chandler', 33.31, -111.84],
  ['en_US|AZ|Gilbert', 33.35, -111.79],
  ['en_US|AZ|Glendale', 33.54, -112.19],
  ['en_US|AZ|Scottsdale', 33.49, -111.93],
  ['en_US|AZ|Tucson', 32.22, -110.97],
  ['en_US|CA|Bakersfield', 35.37, -119.02],
  ['en_US|CA|Berkeley', 37.87, -122.27],
  ['en_US|CA|Brea', 33.92, -117.9],
  ['en_US|CA|Canoga Park', 34.2, -118.6],
  ['en_US|CA|Carlsbad', 33.16, -117.35],
  ['en_US|CA|Cerritos', 33.86, -118.06],
  ['en_US|CA|Chula Vista', 32.64, -117.08],
  ['en_US|CA|Corte Madera', 37.93, -122.51],
  ['en_US|CA|Costa Mesa', 33.64, -117.92],
  ['en_US|CA|Cupertino', 37.32, -122.03],
  ['en_US|CA|Escondido', 33.12, -117.09],
  ['en_US|CA|Fresno', 36.74, -119.79],
  ['en_US|CA|Glendale', 34.15, -118.26],
  ['en_US|CA|Irvine', 33.68, -117.83],
  ['en_US|CA|Los Gatos', 37.24, -121.96],
  ['en_US|CA|Mission Viejo', 33.6, -117.67],
  ['en_US|CA|Modesto', 37.64, -121.0],
  ['en_US|CA|Monterey', 36.6, -121.89],
  ['en_US|CA|Newport Beach', 33.62, -117.93],
  ['en_US|CA|Northridge', 34.24, -118.53],
  ['en_US|CA|Palm Desert', 33.72, -116.37],
  ['en_US|CA|Pleasanton', 37.66, -121.87],
  ['en_US|CA|Rancho Cucamonga', 34.11, -117.59],
  ['en_US|CA|Roseville', 38.75, -121.29],
  ['en_US|CA|Sacramento', 38.58, -121.49],
  ['en_US|CA|San Diego', 32.72, -117.16],
  ['en_US|CA|San Jose', 37.34, -121.89],
  ['en_US|CA|San Luis Obispo', 35.28, -120.66],
  ['en_US|CA|Santa Barbara', 34.42, -119.7],
  ['en_US|CA|Santa Rosa', 38.44, -122.71],
  ['en_US|CA|Sherman Oaks', 34.15, -118.45],
  ['en_US|CA|Temecula', 33.49, -117.15],
  ['en_US|CA|Thousand Oaks', 34.17, -118.84],
  ['en_US|CA|Valencia', 34.41, -118.56],
  ['en_US|CO|Boulder', 40.01, -105.27],
  ['en_US|CO|Broomfield', 39.92, -105.09],
  ['en_US|CO|Colorado Springs', 38.83, -104.82],
  ['en_US|CO|Denver', 39.74, -104.99],
  ['en_US|CO|Littleton', 39.61, -105.02],
  ['en_US|CO|Lone Tree', 39.55, -104.89],
  ['en_US|CT|Danbury', 41.39, -73.45],
  ['en_US|CT|Farmington', 41.72, -72.83],
  ['en_US|CT|Greenwich', 41.03, -73.63],
  ['en_US|CT|New Haven', 41.31, -72.92],
  ['en_US|CT|Norwalk', 41.12, -73.41],
  ['en_US|CT|South Windsor', 41.82, -72.62],
  ['en_US|CT|Trumbull', 41.24, -73.2],
  ['en_US|DC|Washington', 38.9, -77.04],
  ['en_US|DE|Newark', 39.68, -75.75],
  ['en_US|FL|Altamonte Springs', 28.66, -81.37],
  ['en_US|FL|Aventura', 25.96, -80.14],
  ['en_US|FL|Boca Raton', 26.37, -80.13],
  ['en_US|FL|Brandon', 27.94, -82.29],
  ['en_US|FL|Estero', 26.44, -81.81],
  ['en_US|FL|Fort Lauderdale', 26.12, -80.14],
  ['en_US|FL|Jacksonville', 30.33, -81.66],
  ['en_US|FL|Miami', 25.76, -80.19],
  ['en_US|FL|Miami Beach', 25.79, -80.13],
  ['en_US|FL|Naples', 26.14, -81.79],
  ['en_US|FL|Orlando', 28.54, -81.38],
  ['en_US|FL|Palm Beach Gardens', 26.82, -80.14],
  ['en_US|FL|Sarasota', 27.34, -82.53],
  ['en_US|FL|Tampa', 27.95, -82.46],
  ['en_US|FL|Wellington', 26.66, -80.24],
  ['en_US|GA|Alpharetta', 34.08, -84.29],
  ['en_US|GA|Atlanta', 33.75, -84.39],
  ['en_US|GA|Augusta', 33.47, -81.97],
  ['en_US|GA|Buford', 34.12, -84.0],
  ['en_US|HI|Honolulu', 21.31, -157.86],
  ['en_US|IA|West Des Moines', 41.58, -93.71],
  ['en_US|ID|Boise', 43.62, -116.2],
  ['en_US|IL|Deer Park', 42.16, -88.08],
  ['en_US|IL|Naperville', 41.75, -88.15],
  ['en_US|IL|Northbrook', 42.13, -87.83],
  ['en_US|IL|Orland Park', 41.63, -87.85],
  ['en_US|IN|Indianapolis', 39.77, -86.16],
  ['en_US|IN|Mishawaka', 41.66, -86.16],
  ['en_US|KS|Leawood', 38.97, -94.62],
  ['en_US|KY|Lexington', 38.04, -84.5],
  ['en_US|KY|Louisville', 38.25, -85.76],
  ['en_US|LA|Baton Rouge', 30.45, -91.15],
  ['en_US|LA|Metairie', 29.98, -90.15],
  ['en_US|MA|Boston', 42.36, -71.06],
  ['en_US|MA|Braintree', 42.21, -71.0],
  ['en_US|MA|Burlington', 42.5, -71.2],
  ['en_US|MA|Cambridge', 42.37, -71.11],
  ['en_US|MA|Chestnut Hill', 42.33, -71.17],
  ['en_US|MA|Dedham', 42.25, -71.17],
  ['en_US|MA|Hingham', 42.24, -70.89],
  ['en_US|MA|Holyoke', 42.2, -72.62],
  ['en_US|MA|Lynnfield', 42.54, -71.05],
  ['en_US|MA|Marlborough', 42.35, -71.55],
  ['en_US|MA|Natick', 42.28, -71.35],
  ['en_US|MD|Annapolis', 38.98, -76.49],
  ['en_US|MD|Bethesda', 38.98, -77.1],
  ['en_US|MD|Columbia', 39.2, -76.86],
  ['en_US|MD|Towson', 39.4, -76.6],
  ['en_US|ME|South Portland', 43.64, -70.24],
  ['en_US|MI|Ann Arbor', 42.28, -83.74],
  ['en_US|MI|Clinton Township', 42.59, -82.92],
  ['en_US|MI|Grand Rapids', 42.96, -85.67],
  ['en_US|MI|Lansing', 42.73, -84.56],
  ['en_US|MI|Novi', 42.48, -83.48],
  ['en_US|MI|Troy', 42.61, -83.15],
  ['en_US|MN|Bloomington', 44.84, -93.3],
  ['en_US|MN|Edina', 44.89, -93.35],
  ['en_US|MN|Minnetonka', 44.92, -93.47],
  ['en_US|MN|Roseville', 45.01, -93.16],
  ['en_US|MO|Kansas City', 39.1, -94.58],
  ['en_US|MO|Saint Louis', 38.63, -90.2],
  ['en_US|MO|St. Louis', 38.63, -90.2],
  ['en_US|MS|Ridgeland', 32.43, -90.13],
  ['en_US|NC|Charlotte', 35.23, -80.84],
  ['en_US|NC|Durham', 35.99, -78.9],
  ['en_US|NC|Greensboro', 36.07, -79.79],
  ['en_US|NC|Raleigh', 35.78, -78.64],
  ['en_US|NE|Omaha', 41.26, -95.93],
  ['en_US|NH|Manchester', 42.99, -71.46],
  ['en_US|NH|Nashua', 42.77, -71.47],
  ['en_US|NH|Salem', 42.79, -71.2],
  ['en_US|NJ|Bridgewater', 40.59, -74.62],
  ['en_US|NJ|Cherry Hill', 39.93, -75.03],
  ['en_US|NJ|Edison', 40.52, -74.41],
  ['en_US|NJ|Freehold', 40.26, -74.27],
  ['en_US|NJ|Lawrence Township', 40.3, -74.73],
  ['en_US|NJ|Marlton', 39.89, -74.92],
  ['en_US|NJ|Rockaway', 40.9, -74.51],
  ['en_US|NJ|Wayne', 40.93, -74.28],
  ['en_US|NJ|Woodcliff Lake', 41.02, -74.05],
  ['en_US|NM|Albuquerque', 35.08, -106.65],
  ['en_US|NV|Las Vegas', 36.17, -115.14],
  ['en_US|NV|Reno', 39.53, -119.81],
  ['en_US|NY|Albany', 42.65, -73.76],
  ['en_US|NY|Bronx', 40.84, -73.86],
  ['en_US|NY|Buffalo', 42.89, -78.88],
  ['en_US|NY|Garden City', 40.73, -73.63],
  ['en_US|NY|Huntington Station', 40.85, -73.41],
  ['en_US|NY|Lake Grove', 40.86, -73.12],
  ['en_US|NY|Manhasset', 40.8, -73.7],
  ['en_US|NY|Nanuet', 41.09, -74.01],
  ['en_US|NY|Staten Island', 40.58, -74.15],
  ['en_US|NY|Syracuse', 43.05, -76.15],
  ['en_US|NY|Victor', 42.98, -77.41],
  ['en_US|NY|White Plains', 41.03, -73.76],
  ['en_US|NY|Yonkers', 40.93, -73.9],
  ['en_US|OH|Akron', 41.08, -81.52],
  ['en_US|OH|Beavercreek', 39.71, -84.06],
  ['en_US|OH|Cincinnati', 39.1, -84.51],
  ['en_US|OH|Columbus', 39.96, -83.0],
  ['en_US|OH|Toledo', 41.65, -83.54],
  ['en_US|OH|Westlake', 41.46, -81.93],
  ['en_US|OH|Woodmere', 41.46, -81.48],
  ['en_US|OK|Oklahoma City', 35.47, -97.52],
  ['en_US|OK|Tulsa', 36.15, -95.99],
  ['en_US|OR|Portland', 45.52, -122.68],
  ['en_US|OR|Tigard', 45.43, -122.77],
  ['en_US|PA|Ardmore', 40.01, -75.29],
  ['en_US|PA|King of Prussia', 40.09, -75.38],
  ['en_US|PA|Lancaster', 40.04, -76.31],
  ['en_US|PA|Philadelphia', 39.95, -75.17],
  ['en_US|PA|Pittsburgh', 40.44, -80.0],
  ['en_US|PA|Whitehall', 40.65, -75.5],
  ['en_US|PA|Willow Grove', 40.14, -75.12],
  ['en_US|RI|Providence', 41.82, -71.41],
  ['en_US|SC|Charleston', 32.78, -79.93],
  ['en_US|SC|Greenville', 34.85, -82.4],
  ['en_US|TN|Franklin', 35.93, -86.87],
  ['en_US|TN|Germantown', 35.09, -89.81],
  ['en_US|TN|Knoxville', 35.96, -83.92],
  ['en_US|TN|Nashville', 36.16, -86.78],
  ['en_US|TX|Austin', 30.27, -97.74],
  ['en_US|TX|Dallas', 32.78, -96.8],
  ['en_US|TX|El Paso', 31.76, -106.49],
  ['en_US|TX|Fort Worth', 32.76, -97.33],
  ['en_US|TX|Friendswood', 29.53, -95.2],
  ['en_US|TX|Houston', 29.76, -95.37],
  ['en_US|TX|San Antonio', 29.42, -98.49],
  ['en_US|TX|Southlake', 32.94, -97.13],
  ['en_US|TX|Sugar Land', 29.62, -95.63],
  ['en_US|TX|The Woodlands', 30.17, -95.46],
  ['en_US|UT|Farmington', 40.98, -111.89],
  ['en_US|UT|Murray', 40.67, -111.89],
  ['en_US|UT|Salt Lake City', 40.76, -111.89],
  ['en_US|VA|Arlington', 38.88, -77.1],
  ['en_US|VA|Fairfax', 38.85, -77.31],
  ['en_US|VA|McLean', 38.93, -77.18],
  ['en_US|VA|Reston', 38.96, -77.36],
  ['en_US|VA|Richmond', 37.54, -77.44],
  ['en_US|VA|Virginia Beach', 36.85, -75.98],
  ['en_US|VA|Woodbridge', 38.66, -77.25],
  ['en_US|WA|Spokane', 47.66, -117.43],
  ['en_US|WA|Tacoma', 47.25, -122.44],
  ['en_US|WI|Glendale', 43.14, -87.94],
  ['en_US|WI|Madison', 43.07, -89.4],
  ['en_US|WI|Wauwatosa', 43.05, -88.01],
  ['de_DE||Augsburg', 48.37, 10.9],
  ['de_DE||Cologne', 50.94, 6.96],
  ['de_DE||Dresden', 51.05, 13.74],
  ['de_DE||Düsseldorf', 51.23, 6.78],
  ['de_DE||Frankfurt', 50.11, 8.68],
  ['de_DE||Hamburg', 53.55, 9.99],
  ['de_DE||Hannover', 52.37, 9.73],
  ['de_DE||Oberhausen', 51.47, 6.85],
  ['de_DE||Sindelfingen', 48.71, 9.0],
  ['de_DE||Sulzbach', 50.13, 8.53],
  ['en_AU|ACT|Canberra', -35.28, 149.13],
  ['en_AU|NSW|Castle Hill', -33.73, 151.0],
  ['en_AU|NSW|Charlestown', -32.96, 151.69],
  ['en_AU|NSW|Hornsby', -33.7, 151.1],
  ['en_AU|NSW|Miranda', -34.03, 151.1],
  ['en_AU|NSW|Penrith', -33.75, 150.69],
  ['en_AU|QLD|Brisbane City', -27.47, 153.03],
  ['en_AU|QLD|Carindale', -27.5, 153.1],
  ['en_AU|QLD|Chermside', -27.39, 153.03],
  ['en_AU|QLD|Robina Town Centre', -28.08, 153.38],
  ['en_AU|SA|Adelaide', -34.93, 138.6],
  ['en_AU|VIC|Chadstone', -37.89, 145.08],
  ['en_AU|VIC|Cheltenham', -37.96, 145.05],
  ['en_AU|VIC|Doncaster', -37.78, 145.13],
  ['en_AU|VIC|Fountain Gate', -38.02, 145.3],
  ['en_AU|VIC|Maribyrnong', -37.77, 144.89],
  ['en_AU|WA|Booragoon', -32.04, 115.83],
  ['en_AU|WA|Perth', -31.95, 115.86],
  ['en_CA|AB|Calgary', 51.05, -114.07],
  ['en_CA|AB|Edmonton', 53.55, -113.49],
  ['en_CA|BC|Burnaby', 49.25, -122.98],
  ['en_CA|BC|Coquitlam', 49.28, -122.79],
  ['en_CA|BC|Richmond', 49.17, -123.14],
  ['en_CA|BC|Surrey', 49.19, -122.85],
  ['en_CA|BC|Vancouver', 49.28, -123.12],
  ['en_CA|MB|Winnipeg', 49.9, -97.14],
  ['en_CA|NS|Halifax', 44.65, -63.58],
  ['en_CA|ON|Burlington', 43.33, -79.8],
  ['en_CA|ON|London', 42.98, -81.25],
  ['en_CA|ON|Markham', 43.86, -79.34],
  ['en_CA|ON|Mississauga', 43.59, -79.64],
  ['en_CA|ON|Newmarket', 44.06, -79.46],
  ['en_CA|ON|Ottawa', 45.42, -75.7],
  ['en_CA|ON|Waterloo', 43.46, -80.52],
  ['en_CA|QC|Brossard', 45.46, -73.47],
  ['en_CA|QC|Laval', 45.57, -73.75],
  ['en_CA|QC|Montreal', 45.5, -73.57],
  ['en_CA|QC|Pointe-Claire', 45.45, -73.82],
  ['en_CA|QC|Quebec City', 46.81, -71.21],
  ['en_GB||Aberdeen', 57.15, -2.09],
  ['en_GB||Basingstoke', 51.27, -1.09],
  ['en_GB||Bath', 51.38, -2.36],
  ['en_GB||Belfast', 54.6, -5.93],
  ['en_GB||Birmingham', 52.48, -1.9],
  ['en_GB||Brighton', 50.82, -0.14],
  ['en_GB||Bristol', 51.45, -2.59],
  ['en_GB||Bromley', 51.41, 0.02],
  ['en_GB||Cambridge', 52.21, 0.12],
  ['en_GB||Cardiff', 51.48, -3.18],
  ['en_GB||Edinburgh', 55.95, -3.19],
  ['en_GB||Exeter', 50.72, -3.53],
  ['en_GB||Gateshead', 54.96, -1.6],
  ['en_GB||Glasgow', 55.86, -4.25],
  ['en_GB||Grays', 51.48, 0.32],
  ['en_GB||Greenhithe', 51.45, 0.28],
  ['en_GB||Kingston upon Thames', 51.41, -0.3],
  ['en_GB||Leeds', 53.8, -1.55],
  ['en_GB||Leicester', 52.64, -1.13],
  ['en_GB||Liverpool', 53.41, -2.98],
  ['en_GB||Manchester', 53.48, -2.24],
  ['en_GB||Milton Keynes', 52.04, -0.76],
  ['en_GB||Newcastle upon Tyne', 54.98, -1.61],
  ['en_GB||Norwich', 52.63, 1.3],
  ['en_GB||Plymouth', 50.38, -4.14],
  ['en_GB||Reading', 51.45, -0.97],
  ['en_GB||Sheffield', 53.38, -1.47],
  ['en_GB||Solihull', 52.41, -1.78],
  ['en_GB||Southampton', 50.91, -1.4],
  ['en_GB||Watford', 51.66, -0.4],
  ['en_SG||Singapore', 1.35, 103.82],
  ['fr_FR||Aix-en-Provence', 43.53, 5.45],
  ['fr_FR||Bordeaux', 44.84, -0.58],
  ['fr_FR||Dijon', 47.32, 5.04],
  ['fr_FR||Le Chesnay', 48.82, 2.13],
  ['fr_FR||Lieusaint', 48.63, 2.55],
  ['fr_FR||Lille', 50.63, 3.06],
  ['fr_FR||Lyon', 45.76, 4.84],
  ['fr_FR||Marne-la-Vallee', 48.85, 2.78],
  ['fr_FR||Marseille', 43.3, 5.37],
  ['fr_FR||Montpellier', 43.61, 3.88],
  ['fr_FR||Nice', 43.7, 7.27],
  ['fr_FR||Rosny-Sous-Bois', 48.87, 2.49],
  ['fr_FR||Saint Herblain', 47.21, -1.65],
  ['fr_FR||Strasbourg', 48.57, 7.75],
  ['fr_FR||Velizy-Villacoublay', 48.78, 2.19],
  ['ja_JP||Fukuoka-shi', 33.59, 130.4],
  ['ja_JP||Kawasaki-shi', 35.53, 139.7],
  ['ja_JP||Kyoto-shi', 35.01, 135.77],
  ['ja_JP||Nagoya-shi', 35.18, 136.91],
  ['ja_JP||Osaka-shi', 34.69, 135.5],
  ['zh_CN||Beijing', 39.9, 116.4],
  ['zh_CN||Changsha', 28.23, 112.94],
  ['zh_CN||Chengdu', 30.57, 104.07],
  ['zh_CN||Chongqing', 29.56, 106.55],
  ['zh_CN||Dalian', 38.91, 121.61],
  ['zh_CN||Fuzhou', 26.07, 119.3],
  ['zh_CN||Guangzhou', 23.13, 113.26],
  ['zh_CN||Hangzhou', 30.27, 120.16],
  ['zh_CN||Jinan', 36.65, 117.12],
  ['zh_CN||Kunming', 25.04, 102.71],
  ['zh_CN||Nanjing', 32.06, 118.8],
  ['zh_CN||Nanning', 22.82, 108.32],
  ['zh_CN||Ningbo', 29.87, 121.54],
  ['zh_CN||Qingdao', 36.07, 120.38],
  ['zh_CN||Shanghai', 31.23, 121.47],
  ['zh_CN||Shenyang', 41.81, 123.43],
  ['zh_CN||Shenzhen', 22.54, 114.06],
  ['zh_CN||Suzhou', 31.3, 120.59],
  ['zh_CN||Tianjin', 39.34, 117.36],
  ['zh_CN||Wuhan', 30.59, 114.31],
  ['zh_CN||Wuxi', 31.49, 120.31],
  ['zh_CN||Xiamen', 24.48, 118.09],
  ['zh_CN||Zhengzhou', 34.75, 113.63],
];

/** Where each store was put: how many kept seeded coordinates, found a city, or fell back. */
export type Placement = {
  stores: StoreSeed[];
  seeded: number;
  byCity: number;
  /** Stores of cities missing from the table: near the seeded stores of their state or country. */
  fallback: string[];
  /** Stores of countries with neither a table entry nor a seeded store: left out. */
  unplaced: string[];
};

/** Gives every directory store coordinates (see the file comment). */
export function placeStores(
  directory: readonly DirectoryStore[],
  seeded: readonly StoreSeed[],
): Placement {
  const seededById = new Map(seeded.map((store) => [store.store_id, store]));
  const centres = new Map(
    CITY_CENTRES.map(([key, latitude, longitude]) => [key, { latitude, longitude }]),
  );
  const placement: Placement = { stores: [], seeded: 0, byCity: 0, fallback: [], unplaced: [] };
  for (const store of directory) {
    const known = seededById.get(store.store_id);
    if (known !== undefined) {
      placement.seeded += 1;
      placement.stores.push({ ...store, latitude: known.latitude, longitude: known.longitude });
      continue;
    }
    const centre = centres.get(`${store.country_locale}|${store.state_code ?? ''}|${store.city}`);
    if (centre !== undefined) {
      placement.byCity += 1;
      placement.stores.push({ ...store, ...offsetPoint(centre, store.store_id, 0.05) });
      continue;
    }
    const anchor =
      averageCoordinates(
        seeded.filter(
          (s) =>
            s.country_locale === store.country_locale &&
            s.state_code === store.state_code &&
            store.state_code !== null,
        ),
      ) ?? averageCoordinates(seeded.filter((s) => s.country_locale === store.country_locale));
    if (anchor === undefined) {
      placement.unplaced.push(store.store_id);
      continue;
    }
    placement.fallback.push(store.store_id);
    placement.stores.push({ ...store, ...offsetPoint(anchor, store.store_id, 1.5) });
  }
  return placement;
}

function averageCoordinates(
  stores: readonly StoreSeed[],
): { latitude: number; longitude: number } | undefined {
  if (stores.length === 0) return undefined;
  return {
    latitude: stores.reduce((sum, store) => sum + store.latitude, 0) / stores.length,
    longitude: stores.reduce((sum, store) => sum + store.longitude, 0) / stores.length,
  };
}

/** A point up to `spreadDegrees / 2` away from the centre, fixed by the store number. */
function offsetPoint(
  centre: { latitude: number; longitude: number },
  storeId: string,
  spreadDegrees: number,
): { latitude: number; longitude: number } {
  const [first, second] = hashToUnitPair(storeId);
  const latitude = centre.latitude + (first - 0.5) * spreadDegrees;
  const longitude =
    centre.longitude +
    ((second - 0.5) * spreadDegrees) / Math.max(0.2, Math.cos((latitude * Math.PI) / 180));
  return {
    latitude: Math.round(latitude * 1e4) / 1e4,
    longitude: Math.round(longitude * 1e4) / 1e4,
  };
}

/** Two uniform draws in [0, 1) from a string (FNV-1a, then a second round). */
function hashToUnitPair(text: string): [number, number] {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const first = hash / 2 ** 32;
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 12), 0x297a2d39) >>> 0;
  return [first, ((hash ^ (hash >>> 15)) >>> 0) / 2 ** 32];
}
