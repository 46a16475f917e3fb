// Mock torch/extension.h: what a C++ extension includes.
#pragma once
#include <ATen/ATen.h>
#include <pybind11/pybind11.h>
#include <torch/library.h>
