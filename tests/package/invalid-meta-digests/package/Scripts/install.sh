#!/bin/sh
echo install
