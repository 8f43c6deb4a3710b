"""An L2-penalised logistic regression, fitted by Newton's method in numpy: what both
recognizers' acceptance models are (bench/fit_rejection.py, bench/fit_whisper.py)."""

from __future__ import annotations

import numpy as np


def newton(z: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """Weights for the columns of ``z`` (already standardised), then the bias, which is
    not penalised."""
    z = np.hstack([z, np.ones((len(z), 1))])
    w = np.zeros(z.shape[1])
    penalties = np.full(z.shape[1], penalty)
    penalties[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) + penalties * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalties)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w
