fn while() {}
