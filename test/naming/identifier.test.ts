import { describe, expect, it } from "vitest";
import { functionIdentifier, typeIdentifier } from "../../src/naming/identifier.js";

describe("typeIdentifier", () => {
  it.each([
    ["SaveResult", "SaveResult"],
    ["sObject", "SObject"],
    ["my-type.name", "MyTypeName"],
    ["Parent.child", "ParentChild"],
    ["1stThing", "_1stThing"],
    ["Error", "Error$"],
    ["constructor", "Constructor"],
    ["__proto__", "__proto__$"],
    ["string", "String$"],
    ["größe", "Größe"],
    ["", "_"],
    ["***", "_"],
    // `$` is the naming pass's own mark: a source name never keeps one.
    ["Foo$1", "Foo1"],
    ["Address_Type", "Address_Type"],
  ])("%j -> %j", (input, want) => {
    expect(typeIdentifier(input)).toBe(want);
  });
});

describe("typeIdentifier for free text (OpenAPI schema keys), from the corpus's hard cases", () => {
  it.each([
    // Stripe
    ["billing_portal.session", "BillingPortalSession"],
    ["payment_flows_private_payment_methods_alipay", "PaymentFlowsPrivatePaymentMethodsAlipay"],
    ["account_business_profile", "AccountBusinessProfile"],
    ["deleted_account", "DeletedAccount"],
    // The collisions: spelled like a runtime export or a global once cased
    ["validation-error", "ValidationError"],
    ["promise", "Promise$"],
    ["URLSearchParams", "URLSearchParams$"],
    // DigitalOcean-style and hand-written keys
    ["droplet_snapshot", "DropletSnapshot"],
    ["1-click-app", "_1ClickApp"],
    ["pet store/v1", "PetStoreV1"],
    ["__proto__", "Proto"],
    ["a\u2028b", "AB"],
    ["$ref", "Ref"],
    ["日本", "日本"],
  ])("%j -> %j", (input, want) => {
    expect(typeIdentifier(input, "free-text")).toBe(want);
  });
});

describe("functionIdentifier (operationIds -> methods)", () => {
  it.each([
    // OAI examples
    ["find pet by id", "findPetById"],
    ["addPet", "addPet"],
    ["list-data-sets", "listDataSets"],
    ["list-searchable-fields", "listSearchableFields"],
    ["perform-search", "performSearch"],
    ["meta/root", "metaRoot"],
    ["pets.get-one", "petsGetOne"],
    ["get-board", "getBoard"],
    // Stripe and DigitalOcean
    ["GetAccountsAccount", "getAccountsAccount"],
    ["PostPaymentIntentsIntentConfirm", "postPaymentIntentsIntentConfirm"],
    ["droplets_list_neighbors", "dropletsListNeighbors"],
    ["1ClickApps_list", "_1ClickAppsList"],
    // acronyms
    ["URLList", "urlList"],
    ["getURLs", "getURLs"],
    ["ID", "id"],
    ["HTTPServerStatus", "httpServerStatus"],
    // hostile
    ['"; globalThis.x = 1; "', "globalThisX1"],
    ["__proto__", "proto"],
    ["a\u2028b", "aB"],
    ["", "_"],
    ["   ", "_"],
  ])("%j -> %j", (input, want) => {
    expect(functionIdentifier(input)).toBe(want);
  });
});
