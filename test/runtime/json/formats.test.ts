import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  jsonCodePointLength, jsonIsDate, jsonIsDateTime, jsonIsEmail, jsonIsInt64String, jsonIsTime, jsonIsUint64String, jsonIsUri, jsonIsUuid,
} from "../../../src/runtime/json/formats.js";

describe("formats", () => {
  it("date: real calendar days", () => {
    for (const ok of ["2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"]) expect(jsonIsDate(ok), ok).toBe(true);
    for (const bad of ["2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00", "2024-1-01", "24-01-01", "2024-01-01T", "２０２４-01-01"]) {
      expect(jsonIsDate(bad), bad).toBe(false);
    }
  });

  it("date-time and time: RFC 3339 with a required offset", () => {
    for (const ok of ["2024-01-01T10:00:00Z", "2024-01-01t10:00:00z", "2024-01-01T10:00:00.123456+05:30", "2024-12-31T23:59:60Z", "2024-12-31T18:59:60-05:00"]) {
      expect(jsonIsDateTime(ok), ok).toBe(true);
    }
    for (const bad of ["2024-01-01T10:00:00", "2024-01-01 10:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T10:60:00Z", "2024-01-01T10:00:60Z", "2024-01-01T10:00:00+0100", "2024-01-01T10:00:00.Z", "2024-02-30T10:00:00Z", "2024-01-01T10:00:00+24:00", "2024-01-01T10:00:00Zjunk"]) {
      expect(jsonIsDateTime(bad), bad).toBe(false);
    }
    expect(jsonIsTime("08:30:00Z")).toBe(true);
    expect(jsonIsTime("08:30:00")).toBe(false);
  });

  it("uri: absolute, URI characters only, well-formed escapes", () => {
    for (const ok of ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:a@b.c", "http://[::1]:80/", "http://x/%20y", "http://[v7.abc]/", "ldap://u@[2001:db8::7]:8/c=GB?objectClass?one#with-a-long-fragment"]) {
      expect(jsonIsUri(ok), ok).toBe(true);
    }
    for (const bad of ["/relative", "example.com", "http://x y", "http://x/%2", "http://x/%zz", "1http://x", "http://x/#a#b", "http://x/é", ""]) expect(jsonIsUri(bad), bad).toBe(false);
    // Brackets only around an IP literal host (its text is not parsed as an IPv6 address).
    for (const bad of ["http:/[::1]", "https://[@example.org/test.txt", "http://x/[a]", "http://[::1]/%zz-and-a-long-tail-past-32", "http://[::1]#a#b", "http://[a/b]/", "http://[::1]x[", "http://u[@[::1]/"]) {
      expect(jsonIsUri(bad), bad).toBe(false);
    }
  });

  it("uri: the same rule at every length, short strings and long, brackets only around an IP literal host", () => {
    // The oracle is the rule written as regexes; padding a candidate past 32 characters (with a run of "a") checks
    // long strings of the same shape (short ones once took a loop of their own).
    const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?$/;
    // With brackets: "scheme://", optional userinfo "@", one "[...]" of IP-literal characters, then URI characters.
    const HOST = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^/?#[\]@]*@)?\[([^\]]*)\](.*)$/;
    const bracketed = (s: string): boolean => {
      const m = HOST.exec(s);
      if (!m) return false;
      return /^[A-Za-z0-9_.:~!$&'()*+,;=-]+$/.test(m[1]!) && URI.test(`x:${m[2]!}`) && URI.test(s.slice(0, s.indexOf("[")));
    };
    const oracle = (s: string) => (URI.test(s) || bracketed(s)) && !/%(?![0-9A-Fa-f]{2})/.test(s);
    const piece = fc.constantFrom("a", "Z", "1", ":", "/", "//", "::1", "[::1]", "%", "%4", "%41", "%g1", "#", " ", "é", "+", ".", "-", "[", "]", "@", "`", "{", "\u0011", "");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.nat(40), (parts, pad) => {
        const s = parts.join("");
        expect(jsonIsUri(s)).toBe(oracle(s));
        const long = s + "a".repeat(pad);
        expect(jsonIsUri(long)).toBe(oracle(long));
      }),
      { seed: 20261122, numRuns: 5000 },
    );
  });

  it("email and uuid", () => {
    for (const ok of ["a@b.co", "first.last+tag@sub.example.org", "x@localhost"]) expect(jsonIsEmail(ok), ok).toBe(true);
    for (const bad of ["no-at", "a@", "@b.co", "a b@c.d", "a@-b.co", "a@b..co"]) expect(jsonIsEmail(bad), bad).toBe(false);
    expect(jsonIsUuid("123e4567-e89b-12d3-a456-426614174000")).toBe(true);
    expect(jsonIsUuid("123e4567e89b12d3a456426614174000")).toBe(false);
  });

  it("int64 strings within range", () => {
    expect(jsonIsInt64String("-9223372036854775808")).toBe(true);
    expect(jsonIsInt64String("9223372036854775808")).toBe(false);
    expect(jsonIsInt64String("01")).toBe(false);
    expect(jsonIsUint64String("18446744073709551615")).toBe(true);
    expect(jsonIsUint64String("-1")).toBe(false);
  });

  it("code points, not UTF-16 units", () => {
    expect(jsonCodePointLength("a😀é")).toBe(3);
    expect(jsonCodePointLength("\ud83d")).toBe(1);
    expect(jsonCodePointLength("")).toBe(0);
  });
});
