// binary_i.wgsl - binary integer ops (C is i32 or u32): wrapping add/sub/mul, integer pow by
// squaring, min/max, Python-style remainder (sign of the divisor; x % 0 = x as WGSL defines).
// `fn op(x: C, y: C) -> C`, entry point from map2.wgsl / map2v4.wgsl; OP numbers are the integer
// codes of WT_BINARY_TABLE in src/tensor/ops.c.

fn ipow(x: C, y: C) -> C {
    let zero = C(P.pad0);
    let one = zero + C(1);
    if y < zero {
        // only |x| == 1 has a nonzero integer result
        if x == one { return one; }
        if x == zero - one { return select(one, x, (y & one) != zero); }
        return zero;
    }
    var r = one;
    var base = x;
    var e = y;
    loop {
        if e == zero { break; }
        if (e & one) != zero { r = r * base; }
        base = base * base;
        e = e >> u32(1);
    }
    return r;
}

fn op(x: C, y: C) -> C {
    let zero = C(P.pad0);
    switch OP {
        case 0u: { return x + y; }
        case 1u: { return x - y; }
        case 2u: { return x * y; }
        case 3u: { return ipow(x, y); }
        case 4u: { return min(x, y); }
        case 5u: { return max(x, y); }
        case 6u: {
            if y == zero { return x; }
            let r = x % y;
            if r != zero && ((r < zero) != (y < zero)) { return r + y; }
            return r;
        }
        default: { return x; }
    }
}
