// cast.wgsl - dtype conversion and the copy behind `contiguous`/`clone`: `fn op(x: C) -> C`, the
// entry point from map1.wgsl / map1v4.wgsl converts a -> C -> SO.  OP 0: identity (C is the
// target's compute type; float to integer saturates, NaN -> 0); OP 1: to bool, x != 0 tested in
// the source's compute type.

fn op(x: C) -> C {
    if OP == 1u {
        return select(C(0), C(1), x != C(0));
    }
    return x;
}
