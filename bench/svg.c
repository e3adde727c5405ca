/* svg.c - `wgc bench ... --svg FILE`: the report's ratios as a horizontal bar chart in plain SVG
 * (written here, no library), so a run can be looked at as well as read.
 *
 * One group of bars per row: a bar per baseline that has a figure, its length the ratio on a log2
 * axis starting at the parity line (ratio 1; right of it wgc wins, left of it the baseline wins).
 * A row with a target gets a tick on each bar where the ratio would be if wgc exactly met the
 * target.  A row no baseline measured but that has a target gets one grey bar "vs target" (the
 * ratio of wgc's figure to the target, so 1 is the target).  Rows with nothing to compare say so
 * in text.  Every bar is a <rect class="bar"> with data-row / data-baseline attributes and a
 * <title> tooltip giving both figures, so tests and scripts can find them. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define SVG_W 960
#define SVG_LABEL_W 340
#define SVG_X0 (SVG_LABEL_W + 10)
#define SVG_X1 (SVG_W - 70)
#define SVG_BAR_H 14
#define SVG_BAR_GAP 3
#define SVG_ROW_GAP 10
#define SVG_TOP 70

static const char *const svg_colors[BENCH_MAX_BASELINES] = { "#4e79a7", "#f28e2b", "#59a14f" };
#define SVG_TARGET_COLOR "#9c9c9c"

static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

/* The ratio wgc would have against `base` when exactly at the target (NaN when undefined). */
static double target_ratio(const bench_row *row, double base) {
    double t = row->target;
    if (isnan(t) || isnan(base) || t <= 0 || base <= 0)
        return NAN;
    return row->better == BENCH_HIGHER ? t / base : base / t;
}

/* Ratio of wgc's figure to the target, > 1 when the target is met. */
static double vs_target(const bench_row *row) {
    double o = row->ours, t = row->target;
    if (isnan(o) || isnan(t) || o <= 0 || t <= 0)
        return NAN;
    return row->better == BENCH_HIGHER ? o / t : t / o;
}

typedef struct svg_axis {
    double lo, hi;   /* log2 of the axis ends */
} svg_axis;

static double svg_x(const svg_axis *a, double ratio) {
    double l = log2(ratio);
    l = l < a->lo ? a->lo : l > a->hi ? a->hi : l;
    return SVG_X0 + (l - a->lo) / (a->hi - a->lo) * (SVG_X1 - SVG_X0);
}

static void widen(svg_axis *a, double ratio) {
    if (isnan(ratio) || ratio <= 0)
        return;
    double l = log2(ratio);
    if (l - 0.5 < a->lo)
        a->lo = floor(l - 0.5);
    if (l + 0.5 > a->hi)
        a->hi = ceil(l + 0.5);
}

static int row_bars(const bench_report *r, const bench_row *row, bool *target_bar) {
    int n = 0;
    for (int b = 0; b < r->baseline_count; b++)
        n += !isnan(bench_ratio(row, b));
    *target_bar = n == 0 && !isnan(vs_target(row));
    return n + *target_bar;
}

static void bar(FILE *f, const svg_axis *a, double y, double ratio, double tick, const char *color,
                const bench_row *row, const char *who, const char *tip) {
    double x1 = svg_x(a, 1.0), x = svg_x(a, ratio);
    double left = x < x1 ? x : x1, w = fabs(x - x1) < 1 ? 1 : fabs(x - x1);
    fprintf(f, "<rect class=\"bar\" data-row=\"");
    xml_text(f, row->key);
    fprintf(f, "\" data-baseline=\"");
    xml_text(f, who);
    fprintf(f, "\" data-ratio=\"%.6g\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>", ratio,
            left, y, w, SVG_BAR_H, color);
    xml_text(f, tip);
    fprintf(f, "</title></rect>\n");
    fprintf(f, "<text class=\"ratio\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\"%s>x%.3g</text>\n",
            x >= x1 ? x + 4 : x - 4, y + SVG_BAR_H - 3, x >= x1 ? "" : " text-anchor=\"end\"", ratio);
    if (!isnan(tick))
        fprintf(f, "<line class=\"target\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
                   "stroke-width=\"2\"/>\n", svg_x(a, tick), svg_x(a, tick), y - 2, y + SVG_BAR_H + 2);
}

int bench_write_svg(const bench_report *r, const char *path) {
    svg_axis a = { -3, 3 };
    int height = SVG_TOP + 40;
    for (int i = 0; i < r->row_count; i++) {
        const bench_row *row = &r->rows[i];
        bool tb;
        int n = row_bars(r, row, &tb);
        height += (n ? n : 1) * (SVG_BAR_H + SVG_BAR_GAP) + SVG_ROW_GAP;
        for (int b = 0; b < r->baseline_count; b++) {
            widen(&a, bench_ratio(row, b));
            widen(&a, target_ratio(row, row->base[b]));
        }
        if (tb)
            widen(&a, vs_target(row));
    }
    a.lo = a.lo < -12 ? -12 : a.lo;
    a.hi = a.hi > 12 ? 12 : a.hi;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "wgc: bench: cannot write '%s'\n", path);
        return 2;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            SVG_W, height, SVG_W, height);
    fprintf(f, "<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">wgc bench ");
    xml_text(f, r->title);
    fprintf(f, ": how many times better wgc is (log scale; right of 1 wgc wins)</text>\n");
    for (int i = 0; i < r->info_count && i < 2; i++) {
        fprintf(f, "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#555\">", 38 + 13 * i);
        xml_text(f, r->info_key[i]);
        fputs(": ", f);
        xml_text(f, r->info_val[i]);
        fputs("</text>\n", f);
    }
    /* legend */
    int lx = SVG_X0;
    for (int b = 0; b <= r->baseline_count; b++) {
        const char *name = b < r->baseline_count ? r->baselines[b].name : "vs target";
        const char *color = b < r->baseline_count ? svg_colors[b] : SVG_TARGET_COLOR;
        fprintf(f, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                   "<text x=\"%d\" y=\"%d\" font-size=\"11\">", lx, SVG_TOP - 14, color, lx + 14, SVG_TOP - 5);
        xml_text(f, name);
        if (b < r->baseline_count && !r->baselines[b].ran)
            fputs(" (did not run)", f);
        fputs("</text>\n", f);
        lx += 150;
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#d62728\">| target</text>\n", lx, SVG_TOP - 5);
    /* axis: a grid line per power of two (every other one on a wide axis), the parity line bold */
    int step = a.hi - a.lo > 12 ? 2 : 1;
    for (int l = (int)a.lo; l <= (int)a.hi; l++) {
        if (l % step)
            continue;
        double x = svg_x(&a, exp2(l));
        fprintf(f, "<line class=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                l == 0 ? "parity" : "grid", x, x, SVG_TOP, height - 30, l == 0 ? "#000" : "#ddd", l == 0 ? "1.5" : "1");
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s%g</text>\n", x, height - 16,
                l < 0 ? "1/" : "", exp2(abs(l)));
    }
    double y = SVG_TOP + 4;
    for (int i = 0; i < r->row_count; i++) {
        const bench_row *row = &r->rows[i];
        bool tb;
        int n = row_bars(r, row, &tb);
        fprintf(f, "<text class=\"row\" x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">", SVG_LABEL_W,
                y + SVG_BAR_H - 3);
        xml_text(f, row->name);
        fputs("</text>\n", f);
        char tip[400];
        if (n == 0) {
            char v[64];
            if (isnan(row->ours))
                snprintf(v, sizeof v, "not measured");
            else
                snprintf(v, sizeof v, "wgc %.4g %s, no baseline figure or target", row->ours, row->unit);
            fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" fill=\"#888\">", SVG_X0 + 4, y + SVG_BAR_H - 3);
            xml_text(f, v);
            fputs("</text>\n", f);
            y += SVG_BAR_H + SVG_BAR_GAP + SVG_ROW_GAP;
            continue;
        }
        for (int b = 0; b < r->baseline_count; b++) {
            double ratio = bench_ratio(row, b);
            if (isnan(ratio))
                continue;
            snprintf(tip, sizeof tip, "%s: wgc %.4g %s, %s %.4g %s, x%.3g%s%s", row->name, row->ours, row->unit,
                     r->baselines[b].name, row->base[b], row->unit, ratio, row->base_note[b][0] ? "; " : "",
                     row->base_note[b]);
            bar(f, &a, y, ratio, target_ratio(row, row->base[b]), svg_colors[b], row, r->baselines[b].name, tip);
            y += SVG_BAR_H + SVG_BAR_GAP;
        }
        if (tb) {
            snprintf(tip, sizeof tip, "%s: wgc %.4g %s, target %s %.4g %s", row->name, row->ours, row->unit,
                     row->better == BENCH_HIGHER ? ">=" : "<=", row->target, row->unit);
            bar(f, &a, y, vs_target(row), NAN, SVG_TARGET_COLOR, row, "target", tip);
            y += SVG_BAR_H + SVG_BAR_GAP;
        }
        y += SVG_ROW_GAP;
    }
    fputs("</svg>\n", f);
    if (fclose(f) != 0) {
        fprintf(stderr, "wgc: bench: write error on '%s'\n", path);
        return 2;
    }
    return 0;
}
