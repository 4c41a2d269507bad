"""Arkade: the Alien's saucers race the Defence's spaceship across a board of coloured spaces, by dice."""
