// module directives may repeat a filter, but not with another severity
diagnostic(off, subgroup_uniformity);
diagnostic(off, subgroup_uniformity);
diagnostic(warning, subgroup_uniformity);
