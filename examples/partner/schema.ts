import type { FieldType, SoapType } from "../../generated/partner/index.js";
import type { Fixture, FixtureField, FixtureObject } from "./fixture.js";

/** An object type as the emulator knows it: the fixture's fields plus the system fields every record has. */
export interface ObjectMeta {
  readonly name: string;
  readonly label: string;
  readonly labelPlural: string;
  readonly keyPrefix: string;
  readonly fields: readonly FieldMeta[];
  /** Lower-cased field name -> field: field names are case-insensitive in queries and writes. */
  readonly byName: ReadonlyMap<string, FieldMeta>;
}

export interface FieldMeta {
  readonly name: string;
  readonly label: string;
  readonly type: FieldType;
  readonly soapType: SoapType;
  readonly length: number;
  readonly required: boolean;
  readonly createable: boolean;
  readonly updateable: boolean;
  readonly externalId: boolean;
  readonly referenceTo: readonly string[];
  readonly picklistValues: readonly string[];
  readonly system: boolean;
}

const SYSTEM_FIELDS: readonly FixtureField[] = [
  { name: "Id", label: "Record ID", type: "id", length: 18, createable: false, updateable: false },
  { name: "IsDeleted", label: "Deleted", type: "boolean", createable: false, updateable: false },
  { name: "CreatedDate", label: "Created Date", type: "datetime", createable: false, updateable: false },
  { name: "LastModifiedDate", label: "Last Modified Date", type: "datetime", createable: false, updateable: false },
];

const SOAP_TYPES: Partial<Record<FieldType, SoapType>> = {
  id: "tns:ID", reference: "tns:ID", boolean: "xsd:boolean", int: "xsd:int", double: "xsd:double",
  currency: "xsd:double", percent: "xsd:double", date: "xsd:date", datetime: "xsd:dateTime", time: "xsd:time",
  base64: "xsd:base64Binary", anyType: "xsd:anyType",
};

function fieldMeta(f: FixtureField, system: boolean): FieldMeta {
  return {
    name: f.name,
    label: f.label ?? f.name,
    type: f.type,
    soapType: SOAP_TYPES[f.type] ?? "xsd:string",
    length: f.length ?? (["string", "textarea", "email", "phone", "url", "picklist"].includes(f.type) ? 255 : 0),
    required: f.required ?? false,
    createable: f.createable ?? true,
    updateable: f.updateable ?? true,
    externalId: f.externalId ?? false,
    referenceTo: f.referenceTo ?? [],
    picklistValues: f.picklistValues ?? [],
    system,
  };
}

function objectMeta(o: FixtureObject): ObjectMeta {
  const fields = [...SYSTEM_FIELDS.map((f) => fieldMeta(f, true)), ...o.fields.map((f) => fieldMeta(f, false))];
  return {
    name: o.name,
    label: o.label ?? o.name,
    labelPlural: o.labelPlural ?? `${o.label ?? o.name}s`,
    keyPrefix: o.keyPrefix,
    fields,
    byName: new Map(fields.map((f) => [f.name.toLowerCase(), f])),
  };
}

/** Every object type of the fixture, found by name (case-insensitive) or by key prefix. */
export class Schema {
  readonly objects: readonly ObjectMeta[];
  private readonly byName: Map<string, ObjectMeta>;
  private readonly byPrefix: Map<string, ObjectMeta>;

  constructor(fixture: Fixture) {
    this.objects = fixture.objects.map(objectMeta);
    this.byName = new Map(this.objects.map((o) => [o.name.toLowerCase(), o]));
    this.byPrefix = new Map(this.objects.map((o) => [o.keyPrefix, o]));
  }

  object(name: string): ObjectMeta | undefined {
    return this.byName.get(name.toLowerCase());
  }

  objectOfId(id: string): ObjectMeta | undefined {
    return this.byPrefix.get(id.slice(0, 3));
  }
}
