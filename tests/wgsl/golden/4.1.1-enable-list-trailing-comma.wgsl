enable f16, subgroups,;
