var<private> a: array<u32 : 1>;
