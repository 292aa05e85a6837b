;; The source of CONTROL_SCAN_WASM in control-scan-wasm.ts (written from this file by `npm run wasm:control-scan`;
;; a test assembles it again and compares).
;;
;; One pass over bytes, 32 at a time: whether any of the first `len` bytes is a C0 control character other than TAB,
;; LF and CR (what XML 1.0 cannot carry). The caller pads the bytes after `len` up to the next multiple of 32 with
;; spaces. Two checks per 16 bytes:
;;   - bytes 0x00-0x0F: a table lookup (swizzle gives the table's entry for an index below 16, 0 for any other byte),
;;     1 for every control character but TAB (9), LF (10) and CR (13), OR-ed into $low;
;;   - bytes 0x10-0x1F: all forbidden; byte - 16 (wrapping) is below 16 exactly for them, so the unsigned minimum of
;;     byte - 16 over the input ends below 16 when one was there.
(module
  (memory (export "memory") 2)
  (func (export "hasControl") (param $len i32) (result i32)
    (local $i i32) (local $low v128) (local $min v128) (local $v v128)
    (local.set $min (v128.const i8x16 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255 255))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $v (v128.load (local.get $i)))
        (local.set $low (v128.or (local.get $low)
          (i8x16.swizzle (v128.const i8x16 1 1 1 1 1 1 1 1 1 0 0 1 1 0 1 1) (local.get $v))))
        (local.set $min (i8x16.min_u (local.get $min)
          (i8x16.sub (local.get $v) (v128.const i8x16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16))))
        (local.set $v (v128.load offset=16 (local.get $i)))
        (local.set $low (v128.or (local.get $low)
          (i8x16.swizzle (v128.const i8x16 1 1 1 1 1 1 1 1 1 0 0 1 1 0 1 1) (local.get $v))))
        (local.set $min (i8x16.min_u (local.get $min)
          (i8x16.sub (local.get $v) (v128.const i8x16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $next)))
    (i32.or
      (v128.any_true (local.get $low))
      (v128.any_true (i8x16.lt_u (local.get $min) (v128.const i8x16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16))))))
