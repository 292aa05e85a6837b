import type {
  ChildRelationship, DescribeGlobalResult, DescribeGlobalSObjectResult, DescribeLayoutResult, DescribeLayoutRow, DescribeLayoutSection,
  DescribeSObjectResult, DescribeSoftphoneLayoutResult, DescribeTabSetResult, Field,
} from "../../generated/partner/index.js";
import { apiFault } from "./faults.js";
import { makeId } from "./ids.js";
import type { FieldMeta, ObjectMeta } from "./schema.js";
import type { PartnerState } from "./state.js";

/**
 * The describe calls, computed from the fixture's object metadata. Layouts are derived (one detail section listing
 * every non-system field, two per row), as are the tab set (one tab per type) and a single softphone layout.
 */
const MAX_BATCH_SIZE = 200;

function objectNamed(state: PartnerState, type: string): ObjectMeta {
  const meta = state.schema.object(type);
  if (!meta) throw apiFault("INVALID_TYPE", `sObject type '${type}' is not supported`);
  return meta;
}

function globalEntry(o: ObjectMeta): DescribeGlobalSObjectResult {
  return {
    activateable: false, createable: true, custom: o.name.endsWith("__c"), customSetting: false, deletable: true,
    deprecatedAndHidden: false, keyPrefix: o.keyPrefix, label: o.label, labelPlural: o.labelPlural, layoutable: true,
    mergeable: ["Account", "Contact", "Lead"].includes(o.name), name: o.name, queryable: true, replicateable: true,
    retrieveable: true, searchable: true, triggerable: true, undeletable: true, updateable: true,
  };
}

export function describeGlobal(state: PartnerState): DescribeGlobalResult {
  return { encoding: "UTF-8", maxBatchSize: MAX_BATCH_SIZE, sobjects: state.schema.objects.map(globalEntry) };
}

function fieldResult(f: FieldMeta): Field {
  const numeric = ["int", "double", "currency", "percent"].includes(f.type);
  return {
    autoNumber: false,
    byteLength: f.length * 3,
    calculated: false,
    caseSensitive: false,
    createable: f.createable,
    custom: f.name.endsWith("__c"),
    defaultedOnCreate: f.system || f.type === "boolean",
    deprecatedAndHidden: false,
    digits: f.type === "int" ? 9 : 0,
    externalId: f.externalId,
    filterable: true,
    idLookup: f.name === "Id" || f.externalId,
    label: f.label,
    length: f.length,
    name: f.name,
    nameField: f.name === "Name",
    nillable: !f.required && !f.system && f.type !== "boolean",
    ...(f.picklistValues.length > 0
      ? { picklistValues: f.picklistValues.map((v, i) => ({ active: true, defaultValue: i === 0, label: v, value: v })) }
      : {}),
    precision: numeric && f.type !== "int" ? 18 : 0,
    ...(f.referenceTo.length > 0 ? { referenceTo: [...f.referenceTo], relationshipName: f.name.replace(/Id$/, "") } : {}),
    restrictedPicklist: f.picklistValues.length > 0,
    scale: numeric && f.type !== "int" ? 2 : 0,
    soapType: f.soapType,
    sortable: true,
    type: f.type,
    unique: f.name === "Id",
    updateable: f.updateable,
  };
}

function childRelationships(state: PartnerState, o: ObjectMeta): ChildRelationship[] {
  return state.schema.objects.flatMap((child) =>
    child.fields
      .filter((f) => f.type === "reference" && f.referenceTo.includes(o.name))
      .map((f) => ({ cascadeDelete: false, childSObject: child.name, deprecatedAndHidden: false, field: f.name, relationshipName: child.labelPlural.replace(/\W/g, "") })),
  );
}

export function describeSObject(state: PartnerState, type: string): DescribeSObjectResult {
  const o = objectNamed(state, type);
  return {
    ...globalEntry(o),
    childRelationships: childRelationships(state, o),
    fields: o.fields.map(fieldResult),
    recordTypeInfos: [{ available: true, defaultRecordTypeMapping: true, name: "Master", recordTypeId: null }],
    urlDetail: `/${o.keyPrefix}/{ID}`,
    urlEdit: `/${o.keyPrefix}/{ID}/e`,
    urlNew: `/${o.keyPrefix}/e`,
  };
}

export function describeLayout(state: PartnerState, type: string): DescribeLayoutResult {
  const o = objectNamed(state, type);
  const layoutId = makeId("00h", state.schema.objects.indexOf(o) + 1);
  const fields = o.fields.filter((f) => !f.system);
  const rows: DescribeLayoutRow[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const pair = fields.slice(i, i + 2);
    const items = pair.map((f, k) => ({
      editable: f.updateable,
      label: f.label,
      layoutComponents: [{ displayLines: 1, tabOrder: i + k + 1, type: "Field" as const, value: f.name }],
      placeholder: false,
      required: f.required,
    }));
    rows.push({ layoutItems: [items[0]!, ...items.slice(1)], numItems: items.length });
  }
  const section: DescribeLayoutSection[] = rows.length > 0
    ? [{ columns: 2, heading: "Information", layoutRows: [rows[0]!, ...rows.slice(1)], rows: rows.length, useCollapsibleSection: false, useHeading: true }]
    : [];
  return {
    layouts: [
      {
        buttonLayoutSection: { detailButtons: [{ custom: false, label: "Edit", name: "Edit" }, { custom: false, label: "Delete", name: "Delete" }] },
        detailLayoutSections: section,
        editLayoutSections: section,
        id: layoutId,
      },
    ],
    recordTypeMappings: [{ available: true, defaultRecordTypeMapping: true, layoutId, name: "Master", recordTypeId: null }],
    recordTypeSelectorRequired: false,
  };
}

export function describeSoftphoneLayout(state: PartnerState): DescribeSoftphoneLayoutResult {
  const contact = state.schema.object("Contact");
  return {
    id: makeId("04B", 1),
    name: "Default Softphone Layout",
    callTypes: [
      {
        name: "Inbound",
        infoFields: [{ name: "Caller Number" }, { name: "Dialed Number" }],
        ...(contact ? { sections: [{ entityApiName: contact.name, items: [{ itemApiName: "Name" }] }] } : {}),
      },
    ],
  };
}

export function describeTabs(state: PartnerState): DescribeTabSetResult[] {
  return [
    {
      label: "Sales",
      logoUrl: "/img/seasonLogos/logo.png",
      selected: true,
      tabs: state.schema.objects.map((o) => ({
        custom: false,
        iconUrl: `/img/icon/${o.name.toLowerCase()}32.png`,
        label: o.labelPlural,
        miniIconUrl: `/img/icon/${o.name.toLowerCase()}16.png`,
        sobjectName: o.name,
        url: `/${o.keyPrefix}/o`,
      })),
    },
  ];
}
