/** The three levels of the geography, each a table of its own. */
export type GeographyLevel = 'province' | 'district' | 'municipality';
