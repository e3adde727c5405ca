fn typedef() {}
