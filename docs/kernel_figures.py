# Run by every notebook kernel of the book at its start (``docs/build.py`` names this file in
# the kernels' IPython profile, ``exec_files``), in the kernel's namespace.
#
# Each figure the notebook shows carries, in its output's metadata, the sizes of the legend and
# title texts it draws: ``{"image/png": {"width": W, "height": H, "fonts": {...}}}``, where
# ``fonts`` maps "legend" and "title" to the smallest such text, ``[pixels, text]``, in pixels
# of the figure shown at ``W`` pixels wide. The browser test (``tests/book/test_book.py``) scales
# them to the width the page shows the figure at, at 1280 px and at 390 px, so it measures what
# a reader sees from the figure's own metadata. (IPython's inline backend formats a figure with
# ``pylabtools.retina_figure``, looked up when the backend starts: replaced here, before
# anything imports pyplot.)


def _gp_install_figure_fonts():
    from IPython.core import pylabtools

    shown = pylabtools.retina_figure

    def smallest(texts, dpi):
        sizes = [(round(t.get_fontsize() * dpi / 72, 2), t.get_text()[:60]) for t in texts
                 if t.get_visible() and t.get_text().strip()]
        return list(min(sizes)) if sizes else None

    def fonts(fig):
        legends = [leg for ax in fig.axes for leg in [ax.get_legend()] if leg is not None]
        legends += list(fig.legends)
        legend_texts = [t for leg in legends if leg.get_visible()
                        for t in [*leg.get_texts(), leg.get_title()]]
        titles = [t for ax in fig.axes if ax.get_visible()
                  for t in (ax.title, ax._left_title, ax._right_title)]
        if getattr(fig, "_suptitle", None) is not None:
            titles.append(fig._suptitle)
        found = {"legend": smallest(legend_texts, fig.dpi), "title": smallest(titles, fig.dpi)}
        return {kind: size for kind, size in found.items() if size is not None}

    def retina_figure(fig, base64=False, **kwargs):
        formatted = shown(fig, base64=base64, **kwargs)
        if formatted is None:
            return None
        data, metadata = formatted
        try:
            metadata = {**metadata, "fonts": fonts(fig)}
        except Exception:  # noqa: BLE001 - the figure is shown even if it cannot be measured
            pass
        return data, metadata

    pylabtools.retina_figure = retina_figure


_gp_install_figure_fonts()
del _gp_install_figure_fonts
