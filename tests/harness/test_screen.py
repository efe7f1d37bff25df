"""The first screen (awave_bench.render.screen) on the planted study: one table true to the run files, and its
check catching a wrong number, a lost row and too many words."""


from awave_bench.render import screen as fs
from tests.harness.study_fixture import StudyFixture, run_file


class FirstScreen(StudyFixture):
    """The first screen of the planted study."""

    def test_the_first_screen_holds_the_answer_in_one_table_true_to_the_run_files(self):
        run_file(self.d, "cuda-single-steps_512x512x512.json", "cuda", "NVIDIA H100",
                 {"cuda": 0.5e11, "kokkos-cuda": 0.6e11}, label="single-steps")
        for r in (1, 2):  # cuda's default runs swept: best 1e11, single steps 0.5e11
            run_file(self.d, f"cuda_512x512x512{'.r2' if r == 2 else ''}.json", "cuda", "NVIDIA H100",
                     {"cuda": 1e11, "kokkos-cuda": 0.9e11, "kokkos-cuda-mdrange": 0.8e11}, sweeps=("cuda", "kokkos-cuda"))
        text = self.first_page_text(None, None)
        screen = text[:text.index(fs.SCREEN_END)]
        self.assertLess(text.index(fs.SCREEN_END), text.index("Platforms: "), "the screen comes first")
        # PP of each model's best over the row's platforms (CUDA: hand 1e11; offload: omp 0.5e11; CPU: Kokkos 0.8e10)
        self.assertIn("| target: platforms, size | hand-written | Kokkos tuned | Kokkos idiomatic | choose |", screen)
        self.assertIn("| NVIDIA GPUs, CUDA (x): H100, 512^3 | 1.00 [1.00, 1.00] | 0.90 [0.90, 0.90] | 0.80 [0.80, 0.80] | "
                      "**hand-written**, 11% ahead of Kokkos tuned (single steps: tie) |", screen)
        self.assertIn("| x86 CPUs (x): 16 cores, 512^3 | 0.62 | 1.00 | 0.75 | none named: cells of one run", screen)
        cpu_and_cuda = 2 / (1 / 1.0 + 1 / 0.625)
        # each row says its platforms' weights: the GPU counts once a toolchain in "all of these"
        self.assertIn(f"| NVIDIA GPUs (CUDA) and x86 CPUs: H100, 16 cores (1/2 each), 512^3 | {cpu_and_cuda:.2f} |",
                      screen)
        self.assertIn("| all of these: H100 CUDA, H100 OpenMP offload, 16 cores (1/3 each), 512^3 |", screen)
        # a row over two toolchains asks for one source: the best code of one source is named beside the choice
        self.assertIn("none named: cells of one run (single steps: n/a); one source: Kokkos tuned, 0.95 | hand 2 /",
                      screen)
        self.assertNotIn("one source", screen.split("| NVIDIA GPUs (CUDA)")[0], "not on a row of one toolchain")
        self.assertIn("- Built at commit `abc`. [Terms](#terms).", screen)
        self.assertIn("; compilers: CUDA x, OpenMP offload x, CPU x. ", text)  # below the screen
        self.assertIn("- Runs a cell, interleaved: H100 1 or 2, 16 cores 1. Fewer than five: H100 at 512^3, 16 cores "
                      "at 512^3 (why not recorded).", screen)
        for term in ("awave: a double-precision 7-point acoustic stencil", "PP = n / Σ(1/e)", "above 1.00: faster", "Best: the three-step sweep",
                     "Single steps: ", "Kokkos tuned: TeamPolicy", "idiomatic: MDRange", "LayoutRight"):
            self.assertIn(term, screen, "the legend on the screen")
        self.assertEqual(fs.problems(text, [self.d]), [])

    def test_the_screen_check_catches_a_wrong_number_a_lost_row_and_too_many_words(self):
        text = self.first_page_text(None, None)
        wrong = text.replace("| NVIDIA GPUs, CUDA (x): H100, 512^3 | 1.00 | 0.90 |", "| NVIDIA GPUs, CUDA (x): H100, 512^3 | 1.00 | 0.91 |")
        self.assertNotEqual(wrong, text)
        self.assertEqual(fs.problems(wrong, [self.d]),
                         ["NVIDIA GPUs, CUDA (x): H100, 512^3, Kokkos tuned: '0.91' where the run files give '0.90'"])
        row = next(ln for ln in text.splitlines() if ln.startswith("| x86 CPUs (x): 16 cores, 512^3"))
        self.assertEqual(fs.problems(text.replace(row + "\n", ""), [self.d]),
                         ["row 'x86 CPUs (x): 16 cores, 512^3' missing"])
        screen = text[text.index(fs.HEADING) + len(fs.HEADING):text.index(fs.SCREEN_END)]
        words = fs.screen_words(" ".join(ln for ln in screen.splitlines() if not ln.startswith("|")))
        wordy = text.replace("- PP = n", "- " + "word " * (fs.SCREEN_WORDS - words + 1) + "PP = n")
        self.assertEqual(len(fs.problems(wordy, [self.d])), 1)
        self.assertIn(f"words of prose (at most {fs.SCREEN_WORDS})", fs.problems(wordy, [self.d])[0])
        self.assertEqual(fs.problems(text.replace("- PP = n", "- " + "word " * (fs.SCREEN_WORDS - words) + "PP = n"),
                                     [self.d]), [], "at the budget: no problem")
        second = text.replace(fs.SCREEN_END, "| another | table |\n" + fs.SCREEN_END)
        self.assertIn("2 tables (one)", fs.problems(second, [self.d]))
        self.assertEqual(fs.problems(text.replace(fs.SCREEN_END, ""), [self.d]),
                         ["no first screen (its heading, then the end marker)"])

    def test_words_are_tokens_with_a_letter_or_digit_punctuation_and_all(self):
        self.assertEqual(fs.screen_words("runs, [min, max]. 1.00 - **tie** (single steps: n/a)"), 8)
