"""The first page's plots: the cascade (Sewall, Pennycook et al., P3HPC 2020), the navigation chart (PP against
code convergence: Harrell et al., P3HPC 2018) and PP over the sizes."""
import os

from ..metrics.pp import pennycook, table
from ..runs.study import APPLICATIONS, platform_name, points


QUESTION_WORDS = {
    "single": ("architectural efficiency", "single steps: SU/s x 24 B / best triad"),
    "best": ("application efficiency", "each model's best: SU/s / the platform's fastest"),
}


def cascade_plot(plt, plats, effs, pp, shape, out_dir, name, question="single"):
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for idx, app in enumerate(APPLICATIONS):
        row = sorted(((e or 0.0, platform_name(p)) for p, (e, _) in effs[app][shape].items()), reverse=True)
        xs = list(range(1, len(row) + 1))
        ys = [e for e, _ in row]
        line, = ax.plot(xs, ys, marker="o", label=f"{app} (PP {pp[app][shape] or 0:.2f})")
        running = [pennycook(ys[:k]) for k in xs]
        ax.plot(xs, running, linestyle="--", color=line.get_color(), linewidth=1)
        for x, (e, label) in zip(xs, row):
            ax.annotate(label, (x, e), textcoords="offset points", xytext=(4, -9 - 2 * idx), fontsize=5.5,
                        color=line.get_color())
    ax.set_xticks(range(1, len(plats) + 1))
    ax.set_xlabel("platforms, each application's in descending order of efficiency")
    ax.set_ylabel(f"{QUESTION_WORDS[question][0]} (dashed: PP so far)")
    ax.set_ylim(0, max(1.05, max((e or 0.0 for app in APPLICATIONS for e, _ in effs[app][shape].values()),
                                 default=0) + 0.05))
    ax.set_title(f"Cascade, {shape} ({QUESTION_WORDS[question][1]})")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    path = os.path.join(out_dir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return name


def navigation_chart(plt, pp, shapes, convergence, out_dir, name, question="single"):
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    markers = ["o", "s", "^", "D"]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]  # as the cascade plots colour them
    for idx, app in enumerate(APPLICATIONS):
        c = convergence.get(app)
        if c is None:
            continue
        for m, s in zip(markers, shapes):
            ax.scatter([c], [pp[app][s] or 0.0], marker=m, s=40, color=colors[idx % len(colors)])
        ax.annotate(app, (c, max(pp[app][s] or 0.0 for s in shapes)), textcoords="offset points", xytext=(5, 4),
                    fontsize=8)
    for m, s in zip(markers, shapes):
        ax.scatter([], [], marker=m, color="gray", label=s)
    ax.set_xlim(-0.02, 1.05)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlabel("code convergence (1 - divergence, kernels)")
    ax.set_ylabel("performance portability (PP)")
    ax.set_title(f"Navigation chart ({QUESTION_WORDS[question][1].split(':')[0]}): up is faster everywhere, "
                 "right is one code", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def pp_over_sizes_plot(plt, runs, triads, plats, question, out_dir, name):
    """PP of each application at every size the study ran (all platforms), one line each."""
    sizes = sorted({k[3] for k in runs}, key=points)
    _, _, pp = table(runs, triads, sizes, question)
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    for app in APPLICATIONS:
        xs = [round(points(s) ** (1 / 3)) for s in sizes if pp[app][s] is not None]
        ys = [pp[app][s] for s in sizes if pp[app][s] is not None]
        ax.plot(xs, ys, marker="o", label=app)
    ax.set_xlabel("grid edge (cubes; interior points^(1/3))")
    ax.set_ylabel(f"PP ({QUESTION_WORDS[question][0]})")
    ax.set_ylim(0, 1.05 if question == "single" else 1.1)
    ax.set_title(f"PP over the sizes ({QUESTION_WORDS[question][1].split(':')[0]})", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name
