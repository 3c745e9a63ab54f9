"""The TD's pairing actions' addresses: pair, exchange players, swap colours."""

from django.urls import path

from . import views

c = "<slug:club>/<slug:competition>/manage/"
urlpatterns = [
    path(c + "pair/", views.pair, name="pair"),
    path(c + "round/<int:number>/exchange/", views.exchange, name="exchange"),
    path(c + "round/<int:number>/board/<int:board>/swap/", views.swap_colours, name="swap_colours"),
]
