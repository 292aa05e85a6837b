;; The source of TEXT_MEMORY_WASM in text-memory-wasm.ts (written from this file by `npm run wasm:text-memory`; a
;; test assembles it again and compares). See text-memory.ts for how the runtime uses it.
;;
;; The memory holds text as UTF-16LE code units (what Node's Buffer.prototype.ucs2Write writes).
(module
  (memory (export "memory") 2)

  ;; Whether the code units in bytes [$i, $end) include one XML 1.0 cannot carry: a C0 control other than TAB, LF and
  ;; CR, or U+FFFE / U+FFFF. The caller pads the bytes after $end up to the next multiple of 32 with 0x20 (units
  ;; 0x2020, which XML allows). 16 units per round: each unit + 2 (wrapping: U+FFFE and U+FFFF become 0 and 1, the
  ;; controls 2 to 0x21), capped at 255 and narrowed to a byte; then
  ;;   - bytes 0x00-0x0F: a table lookup (swizzle gives the table's entry for an index below 16, 0 for any other),
  ;;     1 for all but TAB (9 + 2), LF (10 + 2) and CR (13 + 2), OR-ed into $low;
  ;;   - bytes 0x10-0x21 (U+000E to U+001F): all forbidden; byte - 16 (wrapping) is below 18 exactly for them, so
  ;;     the unsigned minimum of byte - 16 ends below 18 when one was there.
  (func (export "hasForbidden") (param $i i32) (param $end i32) (result i32)
    (local $low v128) (local $min v128) (local $b v128)
    (local.set $min (v128.const i8x16 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $b (i8x16.narrow_i16x8_u
          (i16x8.min_u (i16x8.add (v128.load (local.get $i)) (v128.const i16x8 2 2 2 2 2 2 2 2))
            (v128.const i16x8 255 255 255 255 255 255 255 255))
          (i16x8.min_u (i16x8.add (v128.load offset=16 (local.get $i)) (v128.const i16x8 2 2 2 2 2 2 2 2))
            (v128.const i16x8 255 255 255 255 255 255 255 255))))
        (local.set $low (v128.or (local.get $low)
          (i8x16.swizzle (v128.const i8x16 1 1 1 1 1 1 1 1 1 1 1 0 0 1 1 0) (local.get $b))))
        (local.set $min (i8x16.min_u (local.get $min)
          (i8x16.sub (local.get $b) (v128.const i8x16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $next)))
    (i32.or
      (v128.any_true (local.get $low))
      (v128.any_true (i8x16.lt_u (local.get $min) (v128.const i8x16 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18)))))

  ;; Whether the $length bytes at $a equal those at $b. Reads whole 16-byte blocks: up to 15 bytes past either
  ;; range, which the caller keeps inside the memory; a difference there is not one.
  (func (export "equal") (param $a i32) (param $b i32) (param $length i32) (result i32)
    (local $i i32) (local $same i32)
    (block $equal
      (loop $next
        (br_if $equal (i32.ge_u (local.get $i) (local.get $length)))
        ;; One bit per byte of the block, set where the two are equal.
        (local.set $same (i8x16.bitmask (i8x16.eq
          (v128.load (i32.add (local.get $a) (local.get $i)))
          (v128.load (i32.add (local.get $b) (local.get $i))))))
        (if (i32.ne (local.get $same) (i32.const 0xffff))
          ;; The first difference, counted from the start of the block: inside the range or past it.
          (then (return (i32.ge_u
            (i32.add (local.get $i) (i32.ctz (i32.xor (local.get $same) (i32.const 0xffff))))
            (local.get $length)))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))
    (i32.const 1)))
