/**
 * Contract §13 with §11: the `changes` of an entry that targets an erased account lose that account's
 * personal fields: name, email, phone, address and their parts (address.street, ward, the geography
 * ids of the address, ...). The keys are dropped whole: what remains says nothing of the person.
 */
const PERSONAL = /^(name|email|phone|address|street|ward|province_?id|district_?id|municipality_?id)$/i;

function isPersonal(key: string): boolean {
  return key
    .split(/[.[\]]/)
    .filter(Boolean)
    .some((part) => PERSONAL.test(part) || /^address/i.test(part));
}

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

/** The changes without the personal fields of the account they describe. */
export function withoutPersonalFields(changes: AuditChanges): AuditChanges {
  return Object.fromEntries(Object.entries(changes).filter(([key]) => !isPersonal(key)));
}
