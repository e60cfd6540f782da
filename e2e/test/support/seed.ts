/** The seven provinces reference-data's migrations seed (contract §5), by name; suites on the shared system may add others. */
export const SEEDED_PROVINCES = ['Bagmati', 'Gandaki', 'Karnali', 'Koshi', 'Lumbini', 'Madhesh', 'Sudurpashchim'];
