#!/bin/sh
echo tampered
