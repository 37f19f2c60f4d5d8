// Base part numbers of the iPhone 16 family, grouped the way Apple assigns them: one block of
// base codes per hardware region, shared by every country in it, which then adds its own
// suffix ("LL/A", "ZD/A", ...). Sources, checked against each other:
// - us, intl: apple.com US and Taiwan buy pages (scraped side by side, so every row pairs the
//   two); intl matches a French ZD/A list for 16 Pro / Pro Max and the UK, German, French,
//   Australian and Singapore buy pages for 16 / 16 Plus. The UK, Australian and Singapore
//   16 Pro / Pro Max rows are inferred from that block and suffix, not seen on their pages.
// - cajp: apple.com Canada buy page (16 and 16 Plus, 2025) and Japan (16 Pro Max, launch
//   week). Canada and Japan share base codes (as they did for iPhone 13 and do for 16 / 16
//   Plus), so Canada's 16 Pro Max is Japan's codes with VC/A. No 16 Pro codes were found for
//   this block, so Canada and Japan carry no 16 Pro models rather than guessed ones.
// - cn: apple.com.cn 16 Pro / Pro Max (Natural Titanium only) and 16 128GB Black; the other
//   16 and 16 Plus rows are Hong Kong's, which shares base codes with mainland China.

/** Capacity, colour and base part number of one configuration. */
export type PartRow = readonly [capacity: string, color: string, base: string];

/** The four product types of the iPhone 16 launch. */
export type Iphone16Type = 'iphone16' | 'iphone16plus' | 'iphone16pro' | 'iphone16promax';

/** A block of countries that share base part numbers. */
export type PartBlock = 'us' | 'intl' | 'cajp' | 'cn';

/** Base part numbers per block and product type. */
export const IPHONE16_BASE_PARTS: Readonly<
  Record<PartBlock, Record<Iphone16Type, readonly PartRow[]>>
> = {
  us: {
    iphone16: [
      ['128GB', 'Black', 'MYAP3'],
      ['128GB', 'White', 'MYAQ3'],
      ['128GB', 'Pink', 'MYAR3'],
      ['128GB', 'Teal', 'MYAW3'],
      ['128GB', 'Ultramarine', 'MYAT3'],
      ['256GB', 'Black', 'MYAX3'],
      ['256GB', 'White', 'MYAY3'],
      ['256GB', 'Pink', 'MYD03'],
      ['256GB', 'Teal', 'MYD23'],
      ['256GB', 'Ultramarine', 'MYD13'],
      ['512GB', 'Black', 'MYD33'],
      ['512GB', 'White', 'MYD43'],
      ['512GB', 'Pink', 'MYD53'],
      ['512GB', 'Teal', 'MYD73'],
      ['512GB', 'Ultramarine', 'MYD63'],
    ],
    iphone16plus: [
      ['128GB', 'Black', 'MXUT3'],
      ['128GB', 'White', 'MXUU3'],
      ['128GB', 'Pink', 'MXUV3'],
      ['128GB', 'Teal', 'MXUX3'],
      ['128GB', 'Ultramarine', 'MXUW3'],
      ['256GB', 'Black', 'MXUY3'],
      ['256GB', 'White', 'MXV03'],
      ['256GB', 'Pink', 'MXV13'],
      ['256GB', 'Teal', 'MXV43'],
      ['256GB', 'Ultramarine', 'MXV33'],
      ['512GB', 'Black', 'MXV53'],
      ['512GB', 'White', 'MXV63'],
      ['512GB', 'Pink', 'MXV73'],
      ['512GB', 'Teal', 'MXV93'],
      ['512GB', 'Ultramarine', 'MXV83'],
    ],
    iphone16pro: [
      ['128GB', 'Black Titanium', 'MYM93'],
      ['128GB', 'White Titanium', 'MYMA3'],
      ['128GB', 'Desert Titanium', 'MYMC3'],
      ['128GB', 'Natural Titanium', 'MYMD3'],
      ['256GB', 'Black Titanium', 'MYMG3'],
      ['256GB', 'White Titanium', 'MYMH3'],
      ['256GB', 'Desert Titanium', 'MYMJ3'],
      ['256GB', 'Natural Titanium', 'MYMK3'],
      ['512GB', 'Black Titanium', 'MYML3'],
      ['512GB', 'White Titanium', 'MYMM3'],
      ['512GB', 'Desert Titanium', 'MYMN3'],
      ['512GB', 'Natural Titanium', 'MYMP3'],
      ['1TB', 'Black Titanium', 'MYMQ3'],
      ['1TB', 'White Titanium', 'MYMR3'],
      ['1TB', 'Desert Titanium', 'MYMT3'],
      ['1TB', 'Natural Titanium', 'MYMU3'],
    ],
    iphone16promax: [
      ['256GB', 'Black Titanium', 'MYW33'],
      ['256GB', 'White Titanium', 'MYW43'],
      ['256GB', 'Desert Titanium', 'MYW53'],
      ['256GB', 'Natural Titanium', 'MYW63'],
      ['512GB', 'Black Titanium', 'MYW73'],
      ['512GB', 'White Titanium', 'MYW83'],
      ['512GB', 'Desert Titanium', 'MYW93'],
      ['512GB', 'Natural Titanium', 'MYWA3'],
      ['1TB', 'Black Titanium', 'MYWC3'],
      ['1TB', 'White Titanium', 'MYWD3'],
      ['1TB', 'Desert Titanium', 'MYWE3'],
      ['1TB', 'Natural Titanium', 'MYWF3'],
    ],
  },
  intl: {
    iphone16: [
      ['128GB', 'Black', 'MYE73'],
      ['128GB', 'White', 'MYE93'],
      ['128GB', 'Pink', 'MYEA3'],
      ['128GB', 'Teal', 'MYED3'],
      ['128GB', 'Ultramarine', 'MYEC3'],
      ['256GB', 'Black', 'MYEE3'],
      ['256GB', 'White', 'MYEF3'],
      ['256GB', 'Pink', 'MYEG3'],
      ['256GB', 'Teal', 'MYEJ3'],
      ['256GB', 'Ultramarine', 'MYEH3'],
      ['512GB', 'Black', 'MYEK3'],
      ['512GB', 'White', 'MYEP3'],
      ['512GB', 'Pink', 'MYEQ3'],
      ['512GB', 'Teal', 'MYEU3'],
      ['512GB', 'Ultramarine', 'MYER3'],
    ],
    iphone16plus: [
      ['128GB', 'Black', 'MXVU3'],
      ['128GB', 'White', 'MXVV3'],
      ['128GB', 'Pink', 'MXVW3'],
      ['128GB', 'Teal', 'MXVY3'],
      ['128GB', 'Ultramarine', 'MXVX3'],
      ['256GB', 'Black', 'MXWN3'],
      ['256GB', 'White', 'MXWV3'],
      ['256GB', 'Pink', 'MXY13'],
      ['256GB', 'Teal', 'MXY53'],
      ['256GB', 'Ultramarine', 'MXY23'],
      ['512GB', 'Black', 'MY1P3'],
      ['512GB', 'White', 'MY1X3'],
      ['512GB', 'Pink', 'MY253'],
      ['512GB', 'Teal', 'MY2J3'],
      ['512GB', 'Ultramarine', 'MY2D3'],
    ],
    iphone16pro: [
      ['128GB', 'Black Titanium', 'MYND3'],
      ['128GB', 'White Titanium', 'MYNE3'],
      ['128GB', 'Desert Titanium', 'MYNF3'],
      ['128GB', 'Natural Titanium', 'MYNG3'],
      ['256GB', 'Black Titanium', 'MYNH3'],
      ['256GB', 'White Titanium', 'MYNJ3'],
      ['256GB', 'Desert Titanium', 'MYNK3'],
      ['256GB', 'Natural Titanium', 'MYNL3'],
      ['512GB', 'Black Titanium', 'MYNM3'],
      ['512GB', 'White Titanium', 'MYNN3'],
      ['512GB', 'Desert Titanium', 'MYNP3'],
      ['512GB', 'Natural Titanium', 'MYNQ3'],
      ['1TB', 'Black Titanium', 'MYNR3'],
      ['1TB', 'White Titanium', 'MYNT3'],
      ['1TB', 'Desert Titanium', 'MYNW3'],
      ['1TB', 'Natural Titanium', 'MYNX3'],
    ],
    iphone16promax: [
      ['256GB', 'Black Titanium', 'MYWV3'],
      ['256GB', 'White Titanium', 'MYWW3'],
      ['256GB', 'Desert Titanium', 'MYWX3'],
      ['256GB', 'Natural Titanium', 'MYWY3'],
      ['512GB', 'Black Titanium', 'MYX03'],
      ['512GB', 'White Titanium', 'MYX13'],
      ['512GB', 'Desert Titanium', 'MYX23'],
      ['512GB', 'Natural Titanium', 'MYX33'],
      ['1TB', 'Black Titanium', 'MYX43'],
      ['1TB', 'White Titanium', 'MYX53'],
      ['1TB', 'Desert Titanium', 'MYX63'],
      ['1TB', 'Natural Titanium', 'MYX73'],
    ],
  },
  cajp: {
    iphone16: [
      ['128GB', 'Black', 'MYDQ3'],
      ['128GB', 'White', 'MYDR3'],
      ['128GB', 'Pink', 'MYDT3'],
      ['128GB', 'Teal', 'MYDV3'],
      ['128GB', 'Ultramarine', 'MYDU3'],
    ],
    iphone16plus: [
      ['128GB', 'Black', 'MXVA3'],
      ['128GB', 'White', 'MXVC3'],
      ['128GB', 'Pink', 'MXVD3'],
      ['128GB', 'Teal', 'MXVF3'],
      ['128GB', 'Ultramarine', 'MXVE3'],
      ['256GB', 'Black', 'MXVG3'],
      ['256GB', 'White', 'MXVH3'],
      ['256GB', 'Pink', 'MXVJ3'],
      ['256GB', 'Teal', 'MXVL3'],
      ['256GB', 'Ultramarine', 'MXVK3'],
    ],
    iphone16pro: [],
    iphone16promax: [
      ['256GB', 'Black Titanium', 'MYWG3'],
      ['256GB', 'White Titanium', 'MYWH3'],
      ['256GB', 'Desert Titanium', 'MYWJ3'],
      ['256GB', 'Natural Titanium', 'MYWK3'],
      ['512GB', 'Black Titanium', 'MYWL3'],
      ['512GB', 'White Titanium', 'MYWM3'],
      ['512GB', 'Desert Titanium', 'MYWN3'],
      ['512GB', 'Natural Titanium', 'MYWP3'],
      ['1TB', 'Black Titanium', 'MYWQ3'],
      ['1TB', 'White Titanium', 'MYWR3'],
      ['1TB', 'Desert Titanium', 'MYWT3'],
      ['1TB', 'Natural Titanium', 'MYWU3'],
    ],
  },
  cn: {
    iphone16: [
      ['128GB', 'Black', 'MYEV3'],
      ['128GB', 'White', 'MYEW3'],
      ['128GB', 'Pink', 'MYEX3'],
      ['128GB', 'Teal', 'MYF03'],
      ['128GB', 'Ultramarine', 'MYEY3'],
    ],
    iphone16plus: [
      ['128GB', 'Black', 'MXU93'],
      ['128GB', 'White', 'MXUA3'],
      ['128GB', 'Pink', 'MXUC3'],
      ['128GB', 'Teal', 'MXUE3'],
      ['128GB', 'Ultramarine', 'MXUD3'],
      ['256GB', 'Black', 'MXUF3'],
      ['256GB', 'White', 'MXUG3'],
      ['256GB', 'Pink', 'MXUH3'],
      ['256GB', 'Teal', 'MXUK3'],
      ['256GB', 'Ultramarine', 'MXUJ3'],
    ],
    iphone16pro: [
      ['128GB', 'Natural Titanium', 'MYLR3'],
      ['256GB', 'Natural Titanium', 'MYLW3'],
      ['512GB', 'Natural Titanium', 'MYM43'],
      ['1TB', 'Natural Titanium', 'MYM83'],
    ],
    iphone16promax: [
      ['256GB', 'Natural Titanium', 'MYTQ3'],
      ['512GB', 'Natural Titanium', 'MYTX3'],
      ['1TB', 'Natural Titanium', 'MYW23'],
    ],
  },
};

/** Which block each seeded country buys from, and the suffix it adds to the base code. */
export const IPHONE16_COUNTRY_PARTS: Readonly<
  Record<string, { block: PartBlock; suffix: string }>
> = {
  US: { block: 'us', suffix: 'LL/A' },
  // apple.com/uk sells the iPhone 16 family as QN/A, not the B/A of older UK iPhones.
  GB: { block: 'intl', suffix: 'QN/A' },
  AU: { block: 'intl', suffix: 'X/A' },
  DE: { block: 'intl', suffix: 'ZD/A' },
  FR: { block: 'intl', suffix: 'ZD/A' },
  SG: { block: 'intl', suffix: 'ZP/A' },
  CA: { block: 'cajp', suffix: 'VC/A' },
  JP: { block: 'cajp', suffix: 'J/A' },
  CN: { block: 'cn', suffix: 'CH/A' },
};
