/** The order plumb lists addresses in (plans, steps, reports): the locale's, as `localeCompare` gives. */
export const compareAddresses: (a: string, b: string) => number = new Intl.Collator().compare;
